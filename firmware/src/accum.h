// accum.h — per-square accumulation of scans between two frames, mapped from
// mux/channel to PDN square order through pins.h, and the rounded means.
#ifndef CROWNHEAD_ACCUM_H
#define CROWNHEAD_ACCUM_H

#include <stdint.h>
#include "pins.h"

class Accumulator {
 public:
  void reset();
  // Add one full scan (Scanner::raw(): sums of `samples` conversions per input).
  void add(const uint16_t* raw, uint8_t samples);
  uint16_t scans() const { return scans_; }
  bool empty() const { return samples_ == 0; }
  // Rounded mean ADC value (0..1023) per square, square 1 first.
  void means(uint16_t out[NUM_SQUARES]) const;

 private:
  uint32_t sum_[NUM_SQUARES];
  uint32_t samples_;  // conversions per square in sum_
  uint16_t scans_;
};

#endif
