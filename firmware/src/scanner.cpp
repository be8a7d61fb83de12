// scanner.cpp — mux select / settle / discard / average state machine.
#include "scanner.h"
#include "config.h"

void Scanner::begin(const Hal* hal) {
  hal_ = hal;
  scans_ = 0;
  for (uint8_t i = 0; i < NUM_MUXES * MUX_CHANNELS; i++) raw_[i] = 0;
  select(0);
}

void Scanner::select(uint8_t channel) {
  channel_ = channel;
  hal_->selectChannel(channel);
  selectedAt_ = hal_->micros();
}

bool Scanner::poll() {
  if ((uint32_t)(hal_->micros() - selectedAt_) < SCAN_SETTLE_US) return false;
  for (uint8_t mux = 0; mux < NUM_MUXES; mux++) {
    hal_->readMux(mux);  // discarded: S/H cap still holds the other input
    uint16_t sum = 0;
    for (uint8_t i = 0; i < SCAN_SAMPLES; i++) sum += hal_->readMux(mux);
    raw_[mux * MUX_CHANNELS + channel_] = sum;
  }
  bool done = channel_ == MUX_CHANNELS - 1;
  if (done) scans_++;
  select(done ? 0 : channel_ + 1);
  return done;
}
