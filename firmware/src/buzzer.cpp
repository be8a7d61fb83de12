// buzzer.cpp — the four sound patterns and their player.
// Every note is 2–4 kHz: the board's piezo (a ~4 kHz resonant disc) is loud
// there and nearly silent below 1 kHz (the old 220 Hz illegal-move alert was
// barely audible, and it is the sound that matters most). test_buzzer_led.cpp
// holds the notes and timings.
#include "buzzer.h"
#include "flash.h"

// Three short beeps at 2 kHz: "that move is not legal" (the lowest note: the alarm).
static const Note ILLEGAL[] FLASH_ATTR = {{2000, 110}, {0, 70}, {2000, 110}, {0, 70}, {2000, 110}};
// One short high click: "move accepted".
static const Note CLICK[] FLASH_ATTR = {{2600, 25}};
// Rising three-note phrase (C7 E7 G7, last one held).
static const Note GAMEOVER[] FLASH_ATTR = {{2093, 160}, {0, 30}, {2637, 160}, {0, 30}, {3136, 400}};
// Two bright notes, the second higher (E7, A7): "your move" (the computer has chosen; carry it out).
static const Note YOURMOVE[] FLASH_ATTR = {{2637, 90}, {0, 60}, {3520, 140}};

const Note* Buzzer::pattern(BuzzPattern p, uint8_t* n) {
  switch (p) {
    case BUZZ_ILLEGAL: *n = sizeof ILLEGAL / sizeof ILLEGAL[0]; return ILLEGAL;
    case BUZZ_OK: *n = sizeof CLICK / sizeof CLICK[0]; return CLICK;
    case BUZZ_GAMEOVER: *n = sizeof GAMEOVER / sizeof GAMEOVER[0]; return GAMEOVER;
    case BUZZ_YOURMOVE: *n = sizeof YOURMOVE / sizeof YOURMOVE[0]; return YOURMOVE;
    default: *n = 0; return 0;
  }
}

void Buzzer::begin(const Hal* hal) {
  hal_ = hal;
  notes_ = 0;
  count_ = index_ = 0;
  hal_->noTone();
}

void Buzzer::start(uint8_t index) {
  index_ = index;
  startedAt_ = hal_->micros();
  uint16_t hz = flashWord(&notes_[index].hz);
  if (hz) hal_->tone(hz);
  else hal_->noTone();
}

void Buzzer::play(BuzzPattern p) {
  notes_ = pattern(p, &count_);
  if (!notes_) {
    hal_->noTone();
    return;
  }
  start(0);
}

void Buzzer::poll() {
  if (!notes_) return;
  if ((uint32_t)(hal_->micros() - startedAt_) < (uint32_t)flashWord(&notes_[index_].ms) * 1000UL) return;
  if (index_ + 1 < count_) {
    start(index_ + 1);
  } else {
    notes_ = 0;
    hal_->noTone();
  }
}
