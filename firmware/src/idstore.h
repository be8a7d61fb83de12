// idstore.h — the board id in EEPROM: byte 0 magic, byte 1 length, bytes 2.. the id.
// Writing is a small state machine, one byte per poll when the EEPROM is
// ready (a byte takes ~3.4 ms to program; a 16-character id ~60 ms), so the
// scan never waits for it. Order: the magic is invalidated first, then the
// length and characters are written, then the magic is written again — a
// power cut at any point leaves the old id, no id (the default) or the new
// id, never a mixture that validates. Only bytes that change are written.
#ifndef CROWNHEAD_IDSTORE_H
#define CROWNHEAD_IDSTORE_H

#include <stdint.h>
#include "hal.h"
#include "config.h"

static const uint8_t ID_MAGIC = 0xC7;
static const uint8_t ID_INVALID = 0xFF;
static const uint16_t ID_EEPROM_ADDR = 0;

// Load the id into out (NUL-terminated); the default id when EEPROM holds none.
void loadId(const Hal* hal, char out[ID_MAX + 1]);

class IdWriter {
 public:
  void begin(const Hal* hal);
  // Start storing a valid id (1..ID_MAX characters); poll() does the writes.
  void start(const char* id);
  // Writes at most one byte, and only when the EEPROM is ready. Never waits.
  void poll();
  // True until the last byte has finished programming.
  bool busy() const { return step_ != DONE; }

 private:
  enum Step { INVALIDATE, BODY, VALIDATE, FINISH, DONE };
  // Byte i of the new record body (i = 0 length, 1.. characters).
  uint8_t target(uint8_t i) const { return i == 0 ? len_ : (uint8_t)id_[i - 1]; }
  const Hal* hal_;
  char id_[ID_MAX];
  uint8_t len_;
  uint8_t next_;  // next body byte to compare/write
  Step step_;
};

#endif
