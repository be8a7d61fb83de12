// scanner.h — non-blocking scan of the 32 Hall sensors through the two muxes.
// Both muxes share S0..S3, so one select serves square c+1 (mux 0) and c+17
// (mux 1). Per channel: select, let it settle (other work runs meanwhile),
// then per mux one discarded conversion and SCAN_SAMPLES averaged ones.
#ifndef CROWNHEAD_SCANNER_H
#define CROWNHEAD_SCANNER_H

#include <stdint.h>
#include "hal.h"
#include "pins.h"

class Scanner {
 public:
  void begin(const Hal* hal);
  // Does at most one channel's conversions (never waits for the settle time).
  // Returns true when that completed a full-board scan; raw() then holds it.
  bool poll();
  // raw()[mux * 16 + channel] = sum of SCAN_SAMPLES conversions (0..1023*SCAN_SAMPLES).
  const uint16_t* raw() const { return raw_; }
  uint32_t scans() const { return scans_; }
  uint8_t channel() const { return channel_; }

 private:
  void select(uint8_t channel);
  const Hal* hal_;
  uint16_t raw_[NUM_MUXES * MUX_CHANNELS];
  uint32_t selectedAt_;
  uint32_t scans_;
  uint8_t channel_;
};

#endif
