// test_buzzer_led.cpp — buzzer patterns (notes 2–4 kHz, timing, OFF, non-blocking)
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

// The notes a pattern plays, as the fake hal saw them: {hz, start µs from play()}, ending with the final silence.
static std::vector<ToneEvent> played(BuzzPattern p, uint32_t us) {
  fake.reset();
  bz.begin(&fakeHal);
  fake.tones.clear();
  uint32_t t0 = fake.now;
  bz.play(p);
  runBuzzer(us);
  std::vector<ToneEvent> out = fake.tones;
  for (size_t i = 0; i < out.size(); i++) out[i].at -= t0;
  return out;
}

// A note's length (µs) as played: to the next tone change. The player polls every 100 µs in these tests.
static uint32_t lengthOf(const std::vector<ToneEvent>& t, size_t i) { return t[i + 1].at - t[i].at; }
static bool near(uint32_t us, uint32_t ms) { return us >= ms * 1000 && us <= ms * 1000 + 100; }

TEST(buzzer_illegal_is_three_2khz_beeps) {
  std::vector<ToneEvent> t = played(BUZZ_ILLEGAL, 1000000);
  CHECK(!bz.playing());
  CHECK_EQ(t.size(), (size_t)6);  // beep rest beep rest beep, then silence
  if (t.size() != 6) return;
  CHECK_EQ(t[0].at, (uint32_t)0);  // play() starts the first beep at once
  for (size_t i = 0; i < 5; i++) {
    CHECK_EQ((int)t[i].hz, i % 2 ? 0 : 2000);
    CHECK(near(lengthOf(t, i), i % 2 ? 70 : 110));
  }
  CHECK_EQ((int)t[5].hz, 0);  // ends silent
  CHECK(t[5].at >= 470000 && t[5].at <= 470300);
}

TEST(buzzer_every_note_is_2_to_4_khz) {
  const BuzzPattern all[] = {BUZZ_ILLEGAL, BUZZ_OK, BUZZ_GAMEOVER, BUZZ_YOURMOVE};
  for (size_t p = 0; p < sizeof all / sizeof all[0]; p++) {
    uint8_t n = 0;
    const Note* notes = Buzzer::pattern(all[p], &n);
    CHECK(n > 0);
    for (uint8_t i = 0; i < n; i++) {
      CHECK(notes[i].hz == 0 || (notes[i].hz >= 2000 && notes[i].hz <= 4000));
      CHECK(notes[i].ms >= 20 && notes[i].ms <= 400);
    }
    CHECK(notes[0].hz != 0 && notes[n - 1].hz != 0);  // starts and ends on a note, not a rest
    // and as played: the same frequencies reach the pin, then silence
    std::vector<ToneEvent> t = played(all[p], 2000000);
    CHECK_EQ(t.size(), (size_t)n + 1);
    for (size_t i = 0; i < t.size() && i < n; i++) CHECK_EQ((int)t[i].hz, (int)notes[i].hz);
    CHECK_EQ((int)t.back().hz, 0);
  }
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
  // 160 ms, 30 ms rest, 160 ms, 30 ms rest, 400 ms held
  CHECK(fake.tones.size() == 6 && near(fake.tones[5].at - fake.tones[0].at, 780));
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
  CHECK(notes.size() == 2 && notes[0] < notes[1] && notes[0] >= 2000);
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
