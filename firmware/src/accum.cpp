// accum.cpp — frame averaging.
#include "accum.h"
#include "flash.h"

void Accumulator::reset() {
  for (uint8_t i = 0; i < NUM_SQUARES; i++) sum_[i] = 0;
  samples_ = 0;
  scans_ = 0;
}

void Accumulator::add(const uint16_t* raw, uint8_t samples) {
  if (scans_ == 0xFFFF) {  // never overflows: halve, the mean stays the same
    for (uint8_t i = 0; i < NUM_SQUARES; i++) sum_[i] /= 2;
    samples_ /= 2;
    scans_ /= 2;
  }
  for (uint8_t i = 0; i < NUM_SQUARES; i++)
    sum_[i] += raw[flashByte(&SQUARE_MUX[i]) * MUX_CHANNELS + flashByte(&SQUARE_CHANNEL[i])];
  samples_ += samples;
  scans_++;
}

void Accumulator::means(uint16_t out[NUM_SQUARES]) const {
  if (samples_ == 0) {
    for (uint8_t i = 0; i < NUM_SQUARES; i++) out[i] = 0;
    return;
  }
  if (samples_ <= 64) {  // usual case (a few scans per frame): 16-bit division, 3x faster on AVR
    uint16_t n = (uint16_t)samples_;
    for (uint8_t i = 0; i < NUM_SQUARES; i++) out[i] = (uint16_t)(((uint16_t)sum_[i] + n / 2) / n);
    return;
  }
  for (uint8_t i = 0; i < NUM_SQUARES; i++) {
    uint32_t m = (sum_[i] + samples_ / 2) / samples_;
    out[i] = m > 1023 ? 1023 : (uint16_t)m;
  }
}
