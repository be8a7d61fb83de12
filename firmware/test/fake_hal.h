// fake_hal.h — a fake board for the host tests: fake microsecond clock (each
// ADC conversion costs ADC_US), mux model with a stale first conversion after
// an input change (so a missing discard read shows), serial TX buffer that
// drains at 115200 baud (or instantly), RX queue, buzzer/LED/EEPROM logs.
#ifndef CROWNHEAD_FAKE_HAL_H
#define CROWNHEAD_FAKE_HAL_H

#include <stdint.h>
#include <string>
#include <vector>
#include "hal.h"

struct ToneEvent {
  uint32_t at;  // µs
  uint16_t hz;  // 0 = noTone
};

struct Fake {
  static const uint32_t ADC_US = 13;  // one conversion at ADC clock 1 MHz
  uint32_t now;
  double txCredit;                    // fractional bytes drained
  double txBytesPerSec;               // drain speed (11520 = 115200 baud 8N1)
  bool txInstant;                     // TX buffer drains immediately
  uint16_t txCapacity;                // like Arduino's SERIAL_TX_BUFFER_SIZE - 1
  uint16_t txUsed;
  std::string tx;                     // everything written
  std::string rx;                     // bytes waiting to be read
  uint16_t value[2][16];              // ADC value per mux/channel
  uint8_t channel;
  int lastInput;                      // mux*16+channel of the last conversion
  uint32_t reads;
  uint32_t selects;
  std::vector<ToneEvent> tones;
  bool led;
  uint32_t ledChanges;
  static const uint32_t EEPROM_WRITE_US = 3400;  // ATmega328P: 3.4 ms a byte
  uint8_t eeprom[1024];
  uint32_t eepromWrites;
  uint32_t eepromBusyUntil;           // a write programs until then
  uint32_t eepromWritesWhileBusy;     // would have blocked on the AVR: a bug
  std::vector<std::vector<uint8_t> > eepromHistory;  // EEPROM[0..31] after each write
  uint32_t kicks;                     // watchdog restarts
  uint32_t lastKick;
  uint32_t maxKickGap;                // longest time between two restarts, µs

  void reset();
  void advance(uint32_t us);           // clock + TX drain
  void setSquare(uint8_t square, uint16_t v);  // via pins.h mapping
  void send(const std::string& s) { rx += s; }
  std::vector<std::string> lines() const;  // complete lines of tx (no '\n')
};

extern Fake fake;
extern const Hal fakeHal;

#endif
