// fake_hal.cpp — implementation of the fake board used by the host tests.
#include "fake_hal.h"
#include "pins.h"
#include <string.h>

Fake fake;

void Fake::reset() {
  now = 1000;
  txCredit = 0;
  txInstant = true;
  txBytesPerSec = 11520;
  txCapacity = 63;
  txUsed = 0;
  tx.clear();
  rx.clear();
  for (int m = 0; m < 2; m++)
    for (int c = 0; c < 16; c++) value[m][c] = 512;
  channel = 0;
  lastInput = -1;
  reads = selects = 0;
  tones.clear();
  led = false;
  ledChanges = 0;
  memset(eeprom, 0xFF, sizeof eeprom);
  eepromWrites = 0;
  eepromBusyUntil = 0;
  eepromWritesWhileBusy = 0;
  eepromHistory.clear();
  kicks = 0;
  lastKick = now;
  maxKickGap = 0;
}

void Fake::advance(uint32_t us) {
  now += us;
  if (txInstant) {
    txUsed = 0;
    return;
  }
  txCredit += us * (txBytesPerSec / 1e6);
  while (txCredit >= 1 && txUsed) {
    txUsed--;
    txCredit -= 1;
  }
  if (!txUsed && txCredit > 1) txCredit = 1;
}

void Fake::setSquare(uint8_t square, uint16_t v) {
  value[SQUARE_MUX[square - 1]][SQUARE_CHANNEL[square - 1]] = v;
}

std::vector<std::string> Fake::lines() const {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i < tx.size(); i++)
    if (tx[i] == '\n') {
      out.push_back(tx.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

static void fSelect(uint8_t ch) {
  fake.channel = ch;
  fake.selects++;
}
static uint16_t fReadMux(uint8_t mux) {
  int input = mux * 16 + fake.channel;
  fake.advance(Fake::ADC_US);
  fake.reads++;
  bool stale = input != fake.lastInput;
  fake.lastInput = input;
  return stale ? 1023 : fake.value[mux][fake.channel];
}
static uint32_t fMicros() { return fake.now; }
static uint16_t fTxFree() { return fake.txCapacity - fake.txUsed; }
static void fTxWrite(const uint8_t* b, uint16_t n) {
  fake.tx.append((const char*)b, n);
  fake.txUsed += n;
  if (fake.txInstant) fake.txUsed = 0;
}
static int16_t fRxRead() {
  if (fake.rx.empty()) return -1;
  int16_t c = (uint8_t)fake.rx[0];
  fake.rx.erase(0, 1);
  return c;
}
static void fTone(uint16_t hz) { fake.tones.push_back(ToneEvent{fake.now, hz}); }
static void fNoTone() { fake.tones.push_back(ToneEvent{fake.now, 0}); }
static void fLed(bool on) {
  if (on != fake.led) fake.ledChanges++;
  fake.led = on;
}
static uint8_t fEepromRead(uint16_t a) { return fake.eeprom[a]; }
static bool fEepromReady() { return (int32_t)(fake.now - fake.eepromBusyUntil) >= 0; }
static void fEepromWrite(uint16_t a, uint8_t v) {
  if (!fEepromReady()) fake.eepromWritesWhileBusy++;
  fake.eeprom[a] = v;
  fake.eepromWrites++;
  fake.eepromBusyUntil = fake.now + Fake::EEPROM_WRITE_US;
  fake.eepromHistory.push_back(std::vector<uint8_t>(fake.eeprom, fake.eeprom + 32));
}
static void fKick() {
  uint32_t gap = fake.now - fake.lastKick;
  if (gap > fake.maxKickGap) fake.maxKickGap = gap;
  fake.lastKick = fake.now;
  fake.kicks++;
}

const Hal fakeHal = {fSelect, fReadMux,     fMicros,      fTxFree,      fTxWrite, fRxRead, fTone,
                     fNoTone, fLed,         fEepromRead,  fEepromWrite, fEepromReady, fKick};
