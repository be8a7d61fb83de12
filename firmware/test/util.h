// util.h — helpers shared by the host tests: run the board for fake time,
// validate board lines (checksum), decode frames.
#ifndef CROWNHEAD_TEST_UTIL_H
#define CROWNHEAD_TEST_UTIL_H

#include <string>
#include <vector>
#include "board.h"
#include "fake_hal.h"

// Poll the board until `us` of fake time have passed (each poll costs at
// least LOOP_US besides the conversions it makes).
void runFor(Board& b, uint32_t us);
// True if `line` (no '\n') ends with a correct "*HH".
bool checksumOk(const std::string& line);
// The text before "*HH".
std::string body(const std::string& line);
// Host-style command with checksum.
std::string withChecksum(const std::string& cmd);
// Lines of fake.tx starting with `prefix`.
std::vector<std::string> linesStarting(const std::string& prefix);
// Parse a frame body "F ssss vvv…": seq and 32 values; false if malformed.
bool parseFrame(const std::string& line, unsigned* seq, std::vector<int>* values);
// Boot a board on a fresh fake and run past the boot identity.
void boot(Board& b);

#endif
