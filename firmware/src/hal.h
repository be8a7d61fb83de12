// hal.h — the hardware seam. Everything the firmware logic needs from the
// board goes through this struct of function pointers, so the logic is plain
// C++ (no Arduino headers) and the host tests can plug in a fake with a fake
// clock. firmware.ino fills it with analogRead/digitalWrite/Serial/tone/EEPROM.
#ifndef CROWNHEAD_HAL_H
#define CROWNHEAD_HAL_H

#include <stdint.h>

struct Hal {
  // Drive the shared mux select lines S0..S3 to `channel` (0..15).
  void (*selectChannel)(uint8_t channel);
  // One ADC conversion (0..1023) of mux `mux`'s SIG pin (mux 0 → A0, 1 → A1).
  uint16_t (*readMux)(uint8_t mux);
  // Microseconds since boot; wraps after ~71 minutes (callers use unsigned differences).
  uint32_t (*micros)();
  // Bytes the serial port accepts right now without blocking.
  uint16_t (*txFree)();
  // Queue `n` bytes for transmission; only called with n <= txFree().
  void (*txWrite)(const uint8_t* bytes, uint16_t n);
  // Next received byte, or -1 when none is waiting.
  int16_t (*rxRead)();
  // Square wave of `hz` on the buzzer pin until noTone().
  void (*tone)(uint16_t hz);
  void (*noTone)();
  // Status LED.
  void (*led)(bool on);
  // EEPROM byte access (board id storage). A write starts the ~3.4 ms
  // programming of one byte and returns at once; it is only called when
  // eepromReady() says the previous write has finished (so it never waits).
  uint8_t (*eepromRead)(uint16_t addr);
  void (*eepromWrite)(uint16_t addr, uint8_t value);
  bool (*eepromReady)();
  // Restart the watchdog timer (firmware.ino enables it; see config.h).
  void (*watchdogKick)();
};

#endif
