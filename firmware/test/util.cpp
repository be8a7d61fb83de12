// util.cpp — shared host-test helpers (see util.h).
#include "util.h"
#include <stdio.h>
#include <stdlib.h>

static const uint32_t LOOP_US = 4;

void runFor(Board& b, uint32_t us) {
  uint32_t end = fake.now + us;
  while ((int32_t)(fake.now - end) < 0) {
    b.poll();
    fake.advance(LOOP_US);
  }
}

bool checksumOk(const std::string& line) {
  size_t star = line.rfind('*');
  if (star == std::string::npos || star + 3 != line.size()) return false;
  unsigned x = 0;
  for (size_t i = 0; i < star; i++) x ^= (unsigned char)line[i];
  char want[3];
  snprintf(want, sizeof want, "%02X", x);
  return line.compare(star + 1, 2, want) == 0;
}

std::string body(const std::string& line) {
  size_t star = line.rfind('*');
  return star == std::string::npos ? line : line.substr(0, star);
}

std::string withChecksum(const std::string& cmd) {
  unsigned x = 0;
  for (size_t i = 0; i < cmd.size(); i++) x ^= (unsigned char)cmd[i];
  char buf[4];
  snprintf(buf, sizeof buf, "*%02X", x);
  return cmd + buf;
}

std::vector<std::string> linesStarting(const std::string& prefix) {
  std::vector<std::string> out;
  std::vector<std::string> all = fake.lines();
  for (size_t i = 0; i < all.size(); i++)
    if (all[i].compare(0, prefix.size(), prefix) == 0) out.push_back(all[i]);
  return out;
}

bool parseFrame(const std::string& line, unsigned* seq, std::vector<int>* values) {
  std::string b = body(line);
  if (b.size() != 103 || b.compare(0, 2, "F ") != 0 || b[6] != ' ') return false;
  *seq = (unsigned)strtoul(b.substr(2, 4).c_str(), 0, 16);
  values->clear();
  for (int i = 0; i < 32; i++) values->push_back((int)strtol(b.substr(7 + 3 * i, 3).c_str(), 0, 16));
  return true;
}

void boot(Board& b) {
  fake.reset();
  b.begin(&fakeHal);
  runFor(b, 260000);
}
