// led.h — status LED: off, on, or blinking (LED_BLINK_US half-period), non-blocking.
#ifndef CROWNHEAD_LED_H
#define CROWNHEAD_LED_H

#include <stdint.h>
#include "hal.h"
#include "command.h"

class StatusLed {
 public:
  void begin(const Hal* hal, LedMode mode);
  void set(LedMode mode);
  void poll();
  LedMode mode() const { return mode_; }
  bool lit() const { return lit_; }

 private:
  void drive(bool on);
  const Hal* hal_;
  LedMode mode_;
  bool lit_;
  uint32_t toggledAt_;
};

#endif
