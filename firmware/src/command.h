// command.h — host→board lines: assembling bytes into lines (with the
// 127-character limit) and parsing one line into a command or an error
// (BADCMD / BADARG / CHECKSUM / TOOLONG), checking the optional "*HH".
#ifndef CROWNHEAD_COMMAND_H
#define CROWNHEAD_COMMAND_H

#include <stdint.h>
#include "config.h"

class LineReader {
 public:
  enum Event { NONE, LINE, TOOLONG };
  void reset() { n_ = 0; overflow_ = done_ = false; }
  // Feed one received byte. LINE: text()/length() hold the line (no '\r'/'\n').
  // TOOLONG: a line over MAX_LINE characters ended and was dropped.
  Event feed(char c);
  const char* text() const { return buf_; }
  uint8_t length() const { return n_; }

 private:
  char buf_[MAX_LINE + 2];
  uint8_t n_;
  bool overflow_;
  bool done_;  // last feed() ended a line: start a new one
};

enum CommandKind { CMD_NONE, CMD_IDENTIFY, CMD_RATE, CMD_MODE, CMD_BUZZ, CMD_LED, CMD_ID };
enum BuzzPattern { BUZZ_OFF, BUZZ_ILLEGAL, BUZZ_OK, BUZZ_GAMEOVER, BUZZ_YOURMOVE };
enum LedMode { LED_OFF, LED_ON, LED_BLINK };
enum ErrorCode { ERR_NONE, ERR_BADCMD, ERR_BADARG, ERR_CHECKSUM, ERR_TOOLONG };

struct Command {
  CommandKind kind;
  uint8_t value;         // RATE n, MODE 'S'/'Q', BuzzPattern, LedMode
  char id[ID_MAX + 1];   // ID
  ErrorCode error;       // ERR_NONE when kind is valid
  const char* message;   // human text for the E line (flash string, F_STR)
  const char* word;      // command word for the OK line ("RATE"; flash string)
};

// Parse one line (no '\n'). Empty lines give kind CMD_NONE and no error.
void parseCommand(const char* text, uint8_t length, Command& out);

// Error code names as sent on the wire (flash strings).
const char* errorName(ErrorCode code);

#endif
