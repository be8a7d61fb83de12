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

// Quiet mode: after a frame sent because something moved, one more frame is
// sent once the readings have settled — two ticks in a row agreeing within
// SETTLE_THRESHOLD counts on every square, or at the latest when the next
// heartbeat is due — unless it would equal the frame already sent. Without it
// a value caught mid-placement could stay up to QUIET_THRESHOLD counts off.
static const uint16_t SETTLE_THRESHOLD = 3;          // counts

// Watchdog: firmware.ino enables it with this timeout (avr/wdt.h WDTO_500MS)
// and Board::poll() restarts it every loop (a loop takes well under 1 ms).
// Boards with the OLD Nano bootloader (ATmegaBOOT, "ATmega328P (Old
// Bootloader)" in the IDE) do not survive a watchdog reset: they keep
// resetting until unplugged. Re-flash them with Optiboot ("burn bootloader"
// as an Uno), or set CROWNHEAD_WATCHDOG to 0 here. Uno and new Nanos are fine.
#ifndef CROWNHEAD_WATCHDOG
#define CROWNHEAD_WATCHDOG 1
#endif

// LED blink half-period.
static const uint32_t LED_BLINK_US = 250000UL;

#endif
