// test_buzzer_led.cpp — buzzer patterns (notes, timing, OFF, non-blocking)
// and the status LED modes.
#include "board.h"
#include "buzzer.h"
#include "check.h"
#include "fake_hal.h"
#include "led.h"
#include "util.h"

static Buzzer bz;

static void runBuzzer(uint32_t us) {
  uint32_t end = fake.now + us;
  while ((int32_t)(fake.now - end) < 0) {
    bz.poll();
    fake.advance(100);
  }
}

TEST(buzzer_illegal_is_three_short_low_beeps) {
  fake.reset();
  bz.begin(&fakeHal);
  fake.tones.clear();
  uint32_t t0 = fake.now;
  bz.play(BUZZ_ILLEGAL);
  CHECK(bz.playing());
  CHECK_EQ(fake.now, t0);  // play() returns at once
  runBuzzer(1000000);
  CHECK(!bz.playing());
  int beeps = 0;
  bool low = true;
  for (size_t i = 0; i < fake.tones.size(); i++)
    if (fake.tones[i].hz) {
      beeps++;
      low = low && fake.tones[i].hz < 500;
    }
  CHECK_EQ(beeps, 3);
  CHECK(low);
  CHECK_EQ((int)fake.tones.back().hz, 0);  // ends silent
  // beep 1 starts at once and lasts 110 ms
  CHECK_EQ(fake.tones[0].at, t0);
  uint32_t len = fake.tones[1].at - fake.tones[0].at;
  CHECK(len >= 110000 && len <= 110100);
  uint32_t total = fake.tones.back().at - t0;
  CHECK(total >= 470000 && total <= 470300);
}

TEST(buzzer_ok_is_one_short_high_click) {
  fake.reset();
  bz.begin(&fakeHal);
  fake.tones.clear();
  bz.play(BUZZ_OK);
  runBuzzer(200000);
  CHECK_EQ(fake.tones.size(), (size_t)2);
  CHECK(fake.tones[0].hz >= 2000);
  CHECK_EQ((int)fake.tones[1].hz, 0);
  CHECK(fake.tones[1].at - fake.tones[0].at <= 30000);
}

TEST(buzzer_gameover_rises) {
  fake.reset();
  bz.begin(&fakeHal);
  fake.tones.clear();
  bz.play(BUZZ_GAMEOVER);
  runBuzzer(2000000);
  std::vector<uint16_t> notes;
  for (size_t i = 0; i < fake.tones.size(); i++)
    if (fake.tones[i].hz) notes.push_back(fake.tones[i].hz);
  CHECK_EQ(notes.size(), (size_t)3);
  CHECK(notes.size() == 3 && notes[0] < notes[1] && notes[1] < notes[2]);
  CHECK_EQ((int)fake.tones.back().hz, 0);
}

TEST(buzzer_yourmove_two_rising_notes) {
  fake.reset();
  bz.begin(&fakeHal);
  fake.tones.clear();
  bz.play(BUZZ_YOURMOVE);
  runBuzzer(1000000);
  std::vector<uint16_t> notes;
  for (size_t i = 0; i < fake.tones.size(); i++)
    if (fake.tones[i].hz) notes.push_back(fake.tones[i].hz);
  CHECK_EQ(notes.size(), (size_t)2);
  CHECK(notes.size() == 2 && notes[0] < notes[1] && notes[0] > 500);
  CHECK_EQ((int)fake.tones.back().hz, 0);
}

TEST(buzzer_off_stops_and_new_pattern_restarts) {
  fake.reset();
  bz.begin(&fakeHal);
  bz.play(BUZZ_GAMEOVER);
  runBuzzer(50000);
  fake.tones.clear();
  bz.play(BUZZ_OFF);
  CHECK(!bz.playing());
  CHECK_EQ(fake.tones.size(), (size_t)1);
  CHECK_EQ((int)fake.tones[0].hz, 0);
  runBuzzer(1000000);
  CHECK_EQ(fake.tones.size(), (size_t)1);  // stays silent
  bz.play(BUZZ_ILLEGAL);
  runBuzzer(50000);
  bz.play(BUZZ_OK);  // interrupts ILLEGAL
  runBuzzer(500000);
  CHECK(fake.tones.back().hz == 0 && fake.tones[fake.tones.size() - 2].hz >= 2000);
}

TEST(board_buzzes_without_stalling_frames) {
  static Board board;
  boot(board);
  fake.tones.clear();
  fake.send("BUZZ GAMEOVER\n");
  size_t before = linesStarting("F ").size();
  runFor(board, 1000000);
  CHECK(linesStarting("F ").size() - before >= 99);
  CHECK(fake.tones.size() >= 6);
}

TEST(led_modes_and_blink_period) {
  fake.reset();
  static StatusLed led;
  led.begin(&fakeHal, LED_ON);
  CHECK(fake.led);
  led.set(LED_OFF);
  CHECK(!fake.led);
  led.set(LED_BLINK);
  uint32_t changes = fake.ledChanges;
  for (int i = 0; i < 11000; i++) {  // 1.1 s in 100 µs steps
    led.poll();
    fake.advance(100);
  }
  CHECK_EQ(fake.ledChanges - changes, (uint32_t)4);  // toggles at 250, 500, 750, 1000 ms
  led.set(LED_ON);
  changes = fake.ledChanges;
  for (int i = 0; i < 10000; i++) {
    led.poll();
    fake.advance(100);
  }
  CHECK(fake.led);
  CHECK_EQ(fake.ledChanges, changes);
}
