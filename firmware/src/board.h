// board.h — the firmware application: ties scanner, accumulator, frame
// scheduling (stream / quiet + settled frame + heartbeat), command handling,
// the non-blocking id writer, buzzer, LED and the non-blocking serial output
// together, and restarts the watchdog every loop. firmware.ino calls begin()
// once and poll() forever; the host tests drive it the same way with a fake Hal.
#ifndef CROWNHEAD_BOARD_H
#define CROWNHEAD_BOARD_H

#include <stdint.h>
#include "hal.h"
#include "scanner.h"
#include "accum.h"
#include "line.h"
#include "command.h"
#include "buzzer.h"
#include "led.h"
#include "idstore.h"

static const uint8_t FRAME_LINE_LENGTH = 107;  // "F ssss " + 96 + "*HH\n"

class Board {
 public:
  void begin(const Hal* hal);
  void poll();

  uint8_t rate() const { return rate_; }
  char mode() const { return mode_; }
  uint16_t scanRate() const { return scanRate_; }
  uint16_t seq() const { return seq_; }
  const char* id() const { return id_; }
  const Scanner& scanner() const { return scanner_; }
  const Buzzer& buzzer() const { return buzzer_; }
  const StatusLed& led() const { return led_; }
  bool storingId() const { return idWriter_.busy(); }

 private:
  void measureScanRate(uint32_t now);
  void readCommands();
  void execute(const Command& c);
  void flushReply();
  bool writeReply();
  void tick(uint32_t now);
  void sendFrame(uint32_t now);
  void sendHeartbeat(uint32_t now);
  bool quietChanged(const uint16_t* means) const;
  bool quietSettled(const uint16_t* means) const;
  bool differsFromLast(const uint16_t* means) const;

  const Hal* hal_;
  Scanner scanner_;
  Accumulator accum_;
  OutQueue out_;
  LineReader reader_;
  Buzzer buzzer_;
  StatusLed led_;
  IdWriter idWriter_;
  // The pending reply (OK / E / identity), rendered into out_ once it fits;
  // it goes out before any further frame, and no command is read meanwhile.
  enum ReplyKind { REPLY_NONE, REPLY_OK, REPLY_ERROR, REPLY_IDENTITY };
  ReplyKind reply_;
  ErrorCode replyError_;
  const char* replyText_;  // flash string: command word (OK) or message (E)
  uint16_t last_[NUM_SQUARES];  // values of the last frame sent (quiet mode)
  uint16_t prevTick_[NUM_SQUARES];  // the previous quiet tick's means (settling)
  char id_[ID_MAX + 1];

  uint32_t period_;       // µs between frame ticks
  uint32_t nextTick_;
  uint32_t lastLineAt_;   // last F or H
  uint32_t windowStart_;  // scan-rate window
  uint16_t windowScans_;
  uint16_t scanRate_;
  uint16_t seq_;
  uint8_t rate_;
  char mode_;             // 'S' or 'Q'
  bool booted_;           // boot identity queued (frames start after it)
  bool frameWanted_;
  bool haveLast_;
  bool settlePending_;     // quiet: a change frame went out, the settled one has not
  bool havePrevTick_;
};

#endif
