// config.h — tunable constants of the firmware (timings, averaging, limits).
#ifndef CROWNHEAD_CONFIG_H
#define CROWNHEAD_CONFIG_H

#include <stdint.h>

#define CROWNHEAD_FW_VERSION "1.0.0"
#define CROWNHEAD_DEFAULT_ID "crownhead"

// Scanner: wait this long after switching the mux select lines before the
// first conversion (mux + sensor output settle), then discard one conversion
// per mux (the ADC sample-and-hold still carries the previous channel) and
// average SCAN_SAMPLES conversions.
static const uint16_t SCAN_SETTLE_US = 10;
static const uint8_t SCAN_SAMPLES = 4;

// Frames.
static const uint8_t RATE_MIN = 1;
static const uint8_t RATE_MAX = 100;
static const uint8_t RATE_DEFAULT = 100;
static const uint16_t QUIET_THRESHOLD = 8;           // counts
static const uint32_t HEARTBEAT_US = 250000UL;       // quiet-mode heartbeat
static const uint32_t SCAN_RATE_WINDOW_US = 500000UL; // scan-rate measurement window

// Lines.
static const uint8_t MAX_LINE = 127;                 // characters before '\n'
static const uint8_t ID_MAX = 16;

// LED blink half-period.
static const uint32_t LED_BLINK_US = 250000UL;

#endif
