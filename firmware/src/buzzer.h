// buzzer.h — non-blocking buzzer pattern player (ILLEGAL / OK / GAMEOVER / YOURMOVE / OFF).
// A pattern is a list of notes {hz, ms}; hz 0 is a rest. poll() moves on to
// the next note when the current one has lasted long enough.
#ifndef CROWNHEAD_BUZZER_H
#define CROWNHEAD_BUZZER_H

#include <stdint.h>
#include "hal.h"
#include "command.h"

struct Note {
  uint16_t hz;  // 0 = silence
  uint16_t ms;
};

class Buzzer {
 public:
  void begin(const Hal* hal);
  void play(BuzzPattern pattern);
  void poll();
  bool playing() const { return notes_ != 0; }
  // The notes of a pattern (in flash on the AVR: read with flashWord); count in *n.
  static const Note* pattern(BuzzPattern p, uint8_t* n);

 private:
  void start(uint8_t index);
  const Hal* hal_;
  const Note* notes_;
  uint8_t count_;
  uint8_t index_;
  uint32_t startedAt_;
};

#endif
