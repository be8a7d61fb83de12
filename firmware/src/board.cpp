// board.cpp — main loop logic of the firmware (see board.h).
#include "board.h"
#include "config.h"
#include "idstore.h"
#include "flash.h"

void Board::begin(const Hal* hal) {
  hal_ = hal;
  out_.begin();
  reader_.reset();
  accum_.reset();
  buzzer_.begin(hal);
  led_.begin(hal, LED_ON);
  loadId(hal, id_);
  idWriter_.begin(hal);
  scanner_.begin(hal);
  rate_ = RATE_DEFAULT;
  period_ = 1000000UL / rate_;
  mode_ = 'S';
  seq_ = 0;
  scanRate_ = 0;
  booted_ = frameWanted_ = haveLast_ = settlePending_ = havePrevTick_ = false;
  reply_ = REPLY_NONE;
  uint32_t now = hal->micros();
  windowStart_ = lastLineAt_ = nextTick_ = now;
  windowScans_ = 0;
}

void Board::poll() {
  hal_->watchdogKick();
  out_.pump(hal_);
  if (idWriter_.busy()) {
    idWriter_.poll();
    if (!idWriter_.busy()) loadId(hal_, id_);  // what is stored now
  }
  uint32_t now;
  if (scanner_.poll()) {
    accum_.add(scanner_.raw(), SCAN_SAMPLES);
    windowScans_++;
    now = hal_->micros();
    measureScanRate(now);  // only needed when the count changed
  } else {
    now = hal_->micros();
  }
  if (booted_) {
    readCommands();
    flushReply();
    tick(now);
    if (frameWanted_ && reply_ == REPLY_NONE && !accum_.empty()) sendFrame(now);
    if (mode_ == 'Q' && !frameWanted_ && reply_ == REPLY_NONE &&
        (uint32_t)(now - lastLineAt_) >= HEARTBEAT_US) {
      // A settled frame still owed goes out instead of the heartbeat.
      uint16_t m[NUM_SQUARES];
      if (settlePending_ && !accum_.empty() && (accum_.means(m), differsFromLast(m))) {
        settlePending_ = false;
        frameWanted_ = true;
        sendFrame(now);
      } else {
        settlePending_ = false;
        sendHeartbeat(now);
      }
    }
  }
  buzzer_.poll();
  led_.poll();
  out_.pump(hal_);
}

void Board::measureScanRate(uint32_t now) {
  uint32_t elapsed = now - windowStart_;
  // The first window is shorter so the boot identity line comes out quickly.
  if (elapsed < (booted_ ? SCAN_RATE_WINDOW_US : SCAN_RATE_WINDOW_US / 2)) return;
  uint32_t ms = elapsed / 1000;
  scanRate_ = (uint16_t)(((uint32_t)windowScans_ * 1000UL + ms / 2) / ms);
  windowStart_ = now;
  windowScans_ = 0;
  if (!booted_) {  // boot: identity first, then frames
    booted_ = true;
    reply_ = REPLY_IDENTITY;
    flushReply();
    accum_.reset();
    nextTick_ = now + period_;
    lastLineAt_ = now;
  }
}

void Board::readCommands() {
  while (reply_ == REPLY_NONE) {
    int16_t b = hal_->rxRead();
    if (b < 0) return;
    LineReader::Event e = reader_.feed((char)b);
    if (e == LineReader::NONE) continue;
    Command c;
    if (e == LineReader::TOOLONG) {
      c.kind = CMD_NONE;
      c.error = ERR_TOOLONG;
      c.message = F_STR("line over 127 characters");
    } else {
      parseCommand(reader_.text(), reader_.length(), c);
    }
    execute(c);
  }
}

void Board::execute(const Command& c) {
  if (c.error != ERR_NONE) {
    reply_ = REPLY_ERROR;
    replyError_ = c.error;
    replyText_ = c.message;
    return;
  }
  switch (c.kind) {
    case CMD_NONE: return;  // empty line: no reply
    case CMD_IDENTIFY: reply_ = REPLY_IDENTITY; return;
    case CMD_RATE:
      rate_ = c.value;
      period_ = 1000000UL / rate_;
      nextTick_ = hal_->micros() + period_;
      break;
    case CMD_MODE:
      mode_ = (char)c.value;
      settlePending_ = havePrevTick_ = false;
      break;
    case CMD_BUZZ: buzzer_.play((BuzzPattern)c.value); break;
    case CMD_LED: led_.set((LedMode)c.value); break;
    case CMD_ID:
      idWriter_.start(c.id);  // "OK ID" goes out once it is stored (flushReply)
      break;
  }
  reply_ = REPLY_OK;
  replyText_ = c.word;
}

bool Board::writeReply() {
  out_.open();
  switch (reply_) {
    case REPLY_OK: out_.putP(F_STR("OK ")).putP(replyText_); break;
    case REPLY_ERROR:
      out_.putP(F_STR("E ")).putP(errorName(replyError_)).put(' ').putP(replyText_);
      break;
    case REPLY_IDENTITY:
      out_.putP(F_STR("I CROWNHEAD proto=1 fw=" CROWNHEAD_FW_VERSION " id=")).put(id_);
      out_.putP(F_STR(" n=32 scan=")).dec(scanRate_).putP(F_STR(" rate=")).dec(rate_);
      out_.putP(F_STR(" mode=")).put(mode_);
      break;
    default: return true;
  }
  return out_.close();
}

void Board::flushReply() {
  if (reply_ != REPLY_NONE && !idWriter_.busy() && writeReply()) reply_ = REPLY_NONE;
}

bool Board::quietChanged(const uint16_t* means) const {
  if (!haveLast_) return true;
  for (uint8_t i = 0; i < NUM_SQUARES; i++) {
    int16_t d = (int16_t)means[i] - (int16_t)last_[i];
    if (d > (int16_t)QUIET_THRESHOLD || d < -(int16_t)QUIET_THRESHOLD) return true;
  }
  return false;
}

bool Board::quietSettled(const uint16_t* means) const {
  if (!havePrevTick_) return false;
  for (uint8_t i = 0; i < NUM_SQUARES; i++) {
    int16_t d = (int16_t)means[i] - (int16_t)prevTick_[i];
    if (d > (int16_t)SETTLE_THRESHOLD || d < -(int16_t)SETTLE_THRESHOLD) return false;
  }
  return true;
}

bool Board::differsFromLast(const uint16_t* means) const {
  if (!haveLast_) return true;
  for (uint8_t i = 0; i < NUM_SQUARES; i++)
    if (means[i] != last_[i]) return true;
  return false;
}

void Board::tick(uint32_t now) {
  if ((int32_t)(now - nextTick_) < 0) return;
  nextTick_ += period_;
  if ((int32_t)(now - nextTick_) >= 0) nextTick_ = now + period_;  // fell behind: resync
  if (mode_ == 'S') {
    frameWanted_ = true;
    return;
  }
  // Quiet: this tick's scans are compared with the last frame sent. Unchanged
  // scans agree with it within the threshold, so they are dropped and the next
  // frame is the mean of the scans since the last tick (keeps quiet mode prompt).
  // After a change frame, the first tick that agrees with the previous one
  // (the pieces are at rest) sends the settled values once, if they differ.
  if (frameWanted_ || accum_.empty()) return;
  uint16_t m[NUM_SQUARES];
  accum_.means(m);
  bool settled = quietSettled(m);
  for (uint8_t i = 0; i < NUM_SQUARES; i++) prevTick_[i] = m[i];
  havePrevTick_ = true;
  if (quietChanged(m)) {
    frameWanted_ = true;
    settlePending_ = true;
  } else if (settlePending_ && settled) {
    settlePending_ = false;
    if (differsFromLast(m)) frameWanted_ = true;
    else accum_.reset();
  } else {
    accum_.reset();
  }
}

void Board::sendFrame(uint32_t now) {
  if (out_.room() < FRAME_LINE_LENGTH) return;  // keep scanning; send later
  uint16_t m[NUM_SQUARES];
  accum_.means(m);
  out_.open();
  out_.putP(F_STR("F ")).hex(seq_, 4).put(' ');
  for (uint8_t i = 0; i < NUM_SQUARES; i++) {
    out_.hex(m[i], 3);
    last_[i] = m[i];
  }
  out_.close();
  haveLast_ = true;
  seq_++;
  accum_.reset();
  frameWanted_ = false;
  lastLineAt_ = now;
}

void Board::sendHeartbeat(uint32_t now) {
  out_.open();
  out_.putP(F_STR("H ")).hex(seq_, 4);
  if (!out_.close()) return;
  seq_++;
  lastLineAt_ = now;
}
