// idstore.cpp — EEPROM layout of the board id, and its safe, non-blocking update.
#include "idstore.h"

static bool valid(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

void loadId(const Hal* hal, char out[ID_MAX + 1]) {
  uint8_t n = hal->eepromRead(ID_EEPROM_ADDR + 1);
  bool ok = hal->eepromRead(ID_EEPROM_ADDR) == ID_MAGIC && n >= 1 && n <= ID_MAX;
  for (uint8_t i = 0; ok && i < n; i++) {
    out[i] = (char)hal->eepromRead(ID_EEPROM_ADDR + 2 + i);
    ok = valid(out[i]);
  }
  if (ok) {
    out[n] = 0;
    return;
  }
  const char* d = CROWNHEAD_DEFAULT_ID;
  uint8_t i = 0;
  for (; d[i]; i++) out[i] = d[i];
  out[i] = 0;
}

void IdWriter::begin(const Hal* hal) {
  hal_ = hal;
  step_ = DONE;
  len_ = next_ = 0;
}

void IdWriter::start(const char* id) {
  len_ = 0;
  while (id[len_] && len_ < ID_MAX) {
    id_[len_] = id[len_];
    len_++;
  }
  next_ = 0;
  // Nothing to invalidate if the body is already right (then only the magic may be missing).
  bool same = true;
  for (uint8_t i = 0; same && i <= len_; i++) same = hal_->eepromRead(ID_EEPROM_ADDR + 1 + i) == target(i);
  step_ = same ? VALIDATE : INVALIDATE;
  poll();
}

void IdWriter::poll() {
  while (step_ != DONE) {
    if (!hal_->eepromReady()) return;
    switch (step_) {
      case INVALIDATE:
        step_ = BODY;
        if (hal_->eepromRead(ID_EEPROM_ADDR) != ID_INVALID) {
          hal_->eepromWrite(ID_EEPROM_ADDR, ID_INVALID);
          return;
        }
        break;
      case BODY:
        while (next_ <= len_ && hal_->eepromRead(ID_EEPROM_ADDR + 1 + next_) == target(next_)) next_++;
        if (next_ > len_) {
          step_ = VALIDATE;
          break;
        }
        hal_->eepromWrite(ID_EEPROM_ADDR + 1 + next_, target(next_));
        next_++;
        return;
      case VALIDATE:
        step_ = FINISH;
        if (hal_->eepromRead(ID_EEPROM_ADDR) != ID_MAGIC) {
          hal_->eepromWrite(ID_EEPROM_ADDR, ID_MAGIC);
          return;
        }
        break;
      case FINISH:  // the EEPROM is ready: the last write has completed
        step_ = DONE;
        return;
      case DONE: return;
    }
  }
}
