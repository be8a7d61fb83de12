// idstore.cpp — EEPROM layout of the board id.
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

static void update(const Hal* hal, uint16_t addr, uint8_t v) {
  if (hal->eepromRead(addr) != v) hal->eepromWrite(addr, v);
}

void storeId(const Hal* hal, const char* id) {
  uint8_t n = 0;
  while (id[n] && n < ID_MAX) n++;
  update(hal, ID_EEPROM_ADDR + 1, n);
  for (uint8_t i = 0; i < n; i++) update(hal, ID_EEPROM_ADDR + 2 + i, (uint8_t)id[i]);
  update(hal, ID_EEPROM_ADDR, ID_MAGIC);
}
