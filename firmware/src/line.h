// line.h — board→host lines and the output queue that feeds them to the
// serial port without ever blocking. A line is written straight into the
// queue (open / put… / close); close() appends "*HH\n" (XOR checksum) and
// commits the line only if all of it fitted, so lines are never split or
// half-sent. pump() hands bytes to the serial port as its TX buffer frees up.
#ifndef CROWNHEAD_LINE_H
#define CROWNHEAD_LINE_H

#include <stdint.h>
#include "hal.h"

// XOR of n bytes (the protocol checksum).
uint8_t xorChecksum(const char* s, uint8_t n);
// Value of one hex digit (either case), or -1.
int8_t hexValue(char c);

class OutQueue {
 public:
  static const uint8_t SIZE = 192;  // one frame (107 bytes) + one reply
  void begin() { head_ = used_ = 0; }
  uint8_t room() const { return SIZE - used_; }
  bool empty() const { return used_ == 0; }

  void open();
  OutQueue& put(char c);
  OutQueue& put(const char* s);    // string in RAM
  OutQueue& putP(const char* s);   // string in flash (F_STR)
  OutQueue& hex(uint16_t v, uint8_t digits);  // upper case, zero padded
  OutQueue& dec(uint32_t v);
  // Append "*HH\n"; true and queued if the whole line fitted, else nothing queued.
  bool close();

  // Move as many bytes as the serial TX buffer takes right now.
  void pump(const Hal* hal);

 private:
  uint8_t buf_[SIZE];
  uint8_t head_;     // oldest queued byte
  uint8_t used_;     // committed bytes
  uint8_t pending_;  // bytes of the line being written
  uint8_t write_;    // where the next pending byte goes
  uint8_t xor_;
  bool overflow_;
};

#endif
