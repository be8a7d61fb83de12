// pins.h — the board wiring as the firmware sees it. Must equal
// hardware/pinmap.json (the single source of truth); test/firmware/pinmap.test.ts
// parses both files (and the table in hardware/WIRING.md) and checks them equal.
#ifndef CROWNHEAD_PINS_H
#define CROWNHEAD_PINS_H

#include <stdint.h>
#include "flash.h"

// Arduino digital pins driving the shared CD74HC4067 select lines S0..S3.
static const uint8_t PIN_MUX_SELECT[4] = {2, 3, 4, 5};
// Analog input number of each mux SIG pin: mux 0 → A0, mux 1 → A1.
static const uint8_t PIN_MUX_SIGNAL_ANALOG[2] = {0, 1};
static const uint8_t PIN_BUZZER = 9;
static const uint8_t PIN_LED = 13;

static const uint8_t NUM_SQUARES = 32;
static const uint8_t NUM_MUXES = 2;
static const uint8_t MUX_CHANNELS = 16;

// Square n (PDN 1..32) is wired to mux SQUARE_MUX[n-1], channel SQUARE_CHANNEL[n-1]
// (tables in flash on the AVR: read them with flashByte()).
static const uint8_t SQUARE_MUX[32] FLASH_ATTR = {
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};
static const uint8_t SQUARE_CHANNEL[32] FLASH_ATTR = {
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
};

#endif
