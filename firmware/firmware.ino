// firmware.ino — Crownhead board firmware for the Arduino Uno/Nano (ATmega328P).
// Only wires the hardware seam (src/hal.h) to the Arduino core: analogRead,
// digitalWrite, Serial, tone, EEPROM. All logic lives in src/ (plain C++,
// unit-tested on the host). Wire protocol: PROTOCOL.md. Wiring: src/pins.h
// (= hardware/pinmap.json).
//
// Serial: the core's 64-byte TX buffer is kept; the firmware has its own
// line queue (src/line.h) and hands bytes to Serial only as availableForWrite()
// allows, so Serial.write() never blocks and scanning never stalls.
#include <Arduino.h>
#include <avr/eeprom.h>
#include <avr/wdt.h>
#include "src/hal.h"
#include "src/config.h"
#include "src/pins.h"
#include "src/board.h"

// Select lines are written straight to their port registers (looked up once
// from pins.h in setup()): digitalWrite() costs ~4 µs a pin, a scan selects 16×.
static volatile uint8_t* selectPort[4];
static uint8_t selectMask[4];
static void hwSelect(uint8_t channel) {
  uint8_t sreg = SREG;
  cli();
  for (uint8_t i = 0; i < 4; i++) {
    if ((channel >> i) & 1) *selectPort[i] |= selectMask[i];
    else *selectPort[i] &= (uint8_t)~selectMask[i];
  }
  SREG = sreg;
}
static uint16_t hwReadMux(uint8_t mux) { return (uint16_t)analogRead(PIN_MUX_SIGNAL_ANALOG[mux]); }
static uint32_t hwMicros() { return micros(); }
static uint16_t hwTxFree() { return (uint16_t)Serial.availableForWrite(); }
static void hwTxWrite(const uint8_t* b, uint16_t n) { Serial.write(b, n); }
static int16_t hwRxRead() { return (int16_t)Serial.read(); }
static void hwTone(uint16_t hz) { tone(PIN_BUZZER, hz); }
static void hwNoTone() { noTone(PIN_BUZZER); }
static void hwLed(bool on) { digitalWrite(PIN_LED, on ? HIGH : LOW); }
static uint8_t hwEepromRead(uint16_t a) { return eeprom_read_byte((const uint8_t*)a); }
// Only called when eeprom_is_ready(): starts programming one byte (~3.4 ms) and returns.
static void hwEepromWrite(uint16_t a, uint8_t v) { eeprom_write_byte((uint8_t*)a, v); }
static bool hwEepromReady() { return eeprom_is_ready(); }
static void hwKick() { wdt_reset(); }

static const Hal hal = {hwSelect, hwReadMux,    hwMicros,     hwTxFree,      hwTxWrite, hwRxRead, hwTone,
                        hwNoTone, hwLed,        hwEepromRead, hwEepromWrite, hwEepromReady, hwKick};

// After a watchdog reset the watchdog stays on with its shortest timeout
// (16 ms): turn it off before the C runtime and the Arduino core start, so a
// slow start-up cannot reset again. (Optiboot does this itself; the old Nano
// bootloader does not and never reaches this code — see config.h.)
void disableWatchdogEarly() __attribute__((naked, used, section(".init3")));
void disableWatchdogEarly() {
  MCUSR = 0;
  wdt_disable();
}
static Board board;

void setup() {
  for (uint8_t i = 0; i < 4; i++) {
    pinMode(PIN_MUX_SELECT[i], OUTPUT);
    selectPort[i] = portOutputRegister(digitalPinToPort(PIN_MUX_SELECT[i]));
    selectMask[i] = digitalPinToBitMask(PIN_MUX_SELECT[i]);
  }
  pinMode(PIN_LED, OUTPUT);
  pinMode(PIN_BUZZER, OUTPUT);
  // ADC clock 16 MHz / 16 = 1 MHz (core default /128 = 125 kHz): a conversion
  // takes 13 µs instead of 104 µs. The 328P's 10-bit accuracy degrades a
  // little above 200 kHz; we average 4 conversions per square, which more than
  // makes up for it. Measured (bench/firmware.ts, simavr, the Makefile's -Os
  // build without LTO): ~170 full-board scans/s while streaming 100 frames/s,
  // ~250 at RATE 1. The Arduino IDE links with LTO and runs somewhat faster;
  // the board reports its own measured rate in the identity line (scan=).
  ADCSRA = (ADCSRA & ~(_BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0))) | _BV(ADPS2);
  // A0/A1 carry analogue levels all the time: switch their digital input
  // buffers off (less supply current, no buffer toggling near mid-rail).
  DIDR0 |= _BV(ADC0D) | _BV(ADC1D);
  Serial.begin(115200);
  board.begin(&hal);
#if CROWNHEAD_WATCHDOG
  wdt_enable(WDTO_500MS);  // Board::poll() restarts it every loop
#endif
}

void loop() { board.poll(); }
