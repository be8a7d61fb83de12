// idstore.h — the board id in EEPROM: byte 0 magic, byte 1 length, bytes 2.. the id.
#ifndef CROWNHEAD_IDSTORE_H
#define CROWNHEAD_IDSTORE_H

#include <stdint.h>
#include "hal.h"
#include "config.h"

static const uint8_t ID_MAGIC = 0xC7;
static const uint16_t ID_EEPROM_ADDR = 0;

// Load the id into out (NUL-terminated); the default id when EEPROM holds none.
void loadId(const Hal* hal, char out[ID_MAX + 1]);
// Store a valid id (only bytes that change are written: EEPROM wear).
void storeId(const Hal* hal, const char* id);

#endif
