// line.cpp — line formatting, checksum, non-blocking output queue.
#include "line.h"
#include "flash.h"

uint8_t xorChecksum(const char* s, uint8_t n) {
  uint8_t x = 0;
  for (uint8_t i = 0; i < n; i++) x ^= (uint8_t)s[i];
  return x;
}

int8_t hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

static char hexDigit(uint8_t v) { return (char)(v < 10 ? '0' + v : 'A' + v - 10); }

void OutQueue::open() {
  pending_ = 0;
  write_ = (uint8_t)(((uint16_t)head_ + used_) % SIZE);
  xor_ = 0;
  overflow_ = false;
}

OutQueue& OutQueue::put(char c) {
  if (used_ + pending_ >= SIZE) {
    overflow_ = true;
    return *this;
  }
  buf_[write_] = (uint8_t)c;
  if (++write_ == SIZE) write_ = 0;
  pending_++;
  if (c != '\n') xor_ ^= (uint8_t)c;
  return *this;
}

OutQueue& OutQueue::put(const char* s) {
  while (*s) put(*s++);
  return *this;
}

OutQueue& OutQueue::putP(const char* s) {
  for (char c; (c = flashChar(s)) != 0; s++) put(c);
  return *this;
}

OutQueue& OutQueue::hex(uint16_t v, uint8_t digits) {
  while (digits--) put(hexDigit((v >> (4 * digits)) & 0xF));
  return *this;
}

OutQueue& OutQueue::dec(uint32_t v) {
  char tmp[10];
  uint8_t k = 0;
  do {
    tmp[k++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (k) put(tmp[--k]);
  return *this;
}

bool OutQueue::close() {
  uint8_t x = xor_;
  put('*');
  hex(x, 2);
  put('\n');
  if (overflow_) return false;
  used_ += pending_;
  pending_ = 0;
  return true;
}

void OutQueue::pump(const Hal* hal) {
  while (used_) {
    uint16_t free = hal->txFree();
    if (!free) return;
    uint8_t run = (uint16_t)head_ + used_ > SIZE ? SIZE - head_ : used_;  // contiguous bytes
    uint8_t n = free < run ? (uint8_t)free : run;
    hal->txWrite(buf_ + head_, n);
    head_ = (uint8_t)((uint16_t)head_ + n >= SIZE ? head_ + n - SIZE : head_ + n);
    used_ -= n;
  }
}
