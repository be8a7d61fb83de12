// led.cpp — status LED modes.
#include "led.h"
#include "config.h"

void StatusLed::begin(const Hal* hal, LedMode mode) {
  hal_ = hal;
  set(mode);
}

void StatusLed::drive(bool on) {
  lit_ = on;
  hal_->led(on);
  toggledAt_ = hal_->micros();
}

void StatusLed::set(LedMode mode) {
  mode_ = mode;
  drive(mode != LED_OFF);
}

void StatusLed::poll() {
  if (mode_ == LED_BLINK && (uint32_t)(hal_->micros() - toggledAt_) >= LED_BLINK_US) drive(!lit_);
}
