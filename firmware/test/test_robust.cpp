// test_robust.cpp — what keeps a board working in a real room: the watchdog
// is restarted every loop (never a long gap, whatever the board is doing);
// the id is written to EEPROM without stalling the scan and so that a power
// cut at any moment never leaves a mixed id; quiet mode sends the settled
// values after a change instead of keeping a value caught mid-placement.
#include <string.h>
#include "board.h"
#include "check.h"
#include "fake_hal.h"
#include "idstore.h"
#include "util.h"

static Board board;

static std::string loaded(const uint8_t* eeprom32) {
  Fake saved = fake;
  memset(fake.eeprom, 0xFF, sizeof fake.eeprom);
  memcpy(fake.eeprom, eeprom32, 32);
  char id[ID_MAX + 1];
  loadId(&fakeHal, id);
  fake = saved;
  return id;
}

// Send ID and run until its reply; returns the reply body and the fake time it took.
static std::string setId(const std::string& id, uint32_t* took) {
  size_t before = fake.lines().size();
  uint32_t t0 = fake.now;
  fake.send("ID " + id + "\n");
  for (int i = 0; i < 2000; i++) {
    runFor(board, 100);
    std::vector<std::string> l = fake.lines();
    for (size_t k = before; k < l.size(); k++)
      if (l[k][0] == 'O' || l[k][0] == 'E') {
        if (took) *took = fake.now - t0;
        return body(l[k]);
      }
  }
  return std::string();
}

TEST(watchdog_is_restarted_every_loop_whatever_the_board_does) {
  fake.reset();
  board.begin(&fakeHal);
  runFor(board, 300000);  // boot, scan-rate window, identity
  CHECK(fake.kicks > 1000);
  fake.send("RATE 100\nMODE Q\nBUZZ GAMEOVER\nLED BLINK\n?\n");
  runFor(board, 200000);
  setId("a-sixteen-char-i", 0);
  fake.send("MODE S\n");
  fake.txInstant = false;  // a real, slow link
  runFor(board, 500000);
  // the AVR watchdog is set to 500 ms; no loop iteration comes anywhere near
  CHECK(fake.maxKickGap < 1000);
}

TEST(id_write_never_waits_for_the_eeprom_and_scanning_goes_on) {
  boot(board);
  uint32_t scans0 = board.scanner().scans();
  uint32_t took = 0;
  CHECK_EQ(setId("a-sixteen-char-i", &took), std::string("OK ID"));
  // fresh EEPROM (nothing to invalidate): length + 16 characters + magic, 3.4 ms each, one at a time
  CHECK_EQ(fake.eepromWrites, (uint32_t)18);
  CHECK_EQ(fake.eepromWritesWhileBusy, (uint32_t)0);
  CHECK(took >= 18 * Fake::EEPROM_WRITE_US);
  CHECK((int32_t)(fake.now - fake.eepromBusyUntil) >= 0);  // "OK ID" only once it is stored
  uint32_t scans = board.scanner().scans() - scans0;
  CHECK(scans * 1000000ULL / took >= 250);  // the scan kept its full rate meanwhile
  CHECK(fake.maxKickGap < 1000);
  // the identity carries the stored id; frames resumed
  size_t frames = linesStarting("F ").size();
  fake.send("?\n");
  runFor(board, 50000);
  CHECK(linesStarting("I ").back().find(" id=a-sixteen-char-i ") != std::string::npos);
  CHECK(linesStarting("F ").size() > frames + 3);
}

// Every moment a power cut could strike during an id change: after each
// completed write, and in the middle of each write (the byte being programmed
// reads 0xFF after its erase, or garbage).
static void checkPowerCuts(const std::string& from, const std::string& to) {
  boot(board);
  CHECK_EQ(setId(from, 0), std::string("OK ID"));
  std::vector<uint8_t> before(fake.eeprom, fake.eeprom + 32);
  fake.eepromHistory.clear();
  CHECK_EQ(setId(to, 0), std::string("OK ID"));
  std::vector<std::vector<uint8_t> > states;
  std::vector<uint8_t> prev = before;
  for (size_t k = 0; k < fake.eepromHistory.size(); k++) {
    const std::vector<uint8_t>& after = fake.eepromHistory[k];
    states.push_back(after);
    for (int a = 0; a < 32; a++)
      if (after[a] != prev[a]) {
        std::vector<uint8_t> torn = prev;
        torn[a] = 0xFF;
        states.push_back(torn);
        torn[a] = 0x00;
        states.push_back(torn);
        torn[a] = (uint8_t)(prev[a] ^ after[a] ^ 0x5A);
        states.push_back(torn);
      }
    prev = after;
  }
  CHECK(states.size() >= 4);
  bool ok = true;
  for (size_t k = 0; k < states.size(); k++) {
    std::string id = loaded(&states[k][0]);
    bool fine = id == from || id == to || id == CROWNHEAD_DEFAULT_ID;
    if (!fine) printf("      power cut state %u reads id \"%s\" (from %s to %s)\n", (unsigned)k, id.c_str(), from.c_str(), to.c_str());
    ok = ok && fine;
  }
  CHECK(ok);
  CHECK_EQ(loaded(&fake.eepromHistory.back()[0]), to);
}

TEST(a_power_cut_during_an_id_change_never_leaves_a_mixed_id) {
  checkPowerCuts("table-3", "table-4");        // one character differs
  checkPowerCuts("table-3", "t");              // shorter: a stale tail must not show
  checkPowerCuts("t", "a-sixteen-char-i");     // longer
  checkPowerCuts("abc", "abd");
  checkPowerCuts("table-3", "chair-9");        // every character differs: "cable-3" must never read
  checkPowerCuts("abcdef", "xyz");             // the new length over the old characters must never read "abc"
}

TEST(unchanged_id_writes_nothing_and_a_missing_magic_is_restored_alone) {
  boot(board);
  CHECK_EQ(setId("board-7", 0), std::string("OK ID"));
  uint32_t w = fake.eepromWrites;
  CHECK_EQ(setId("board-7", 0), std::string("OK ID"));
  CHECK_EQ(fake.eepromWrites, w);
  fake.eeprom[0] = 0xFF;  // power cut just before the magic was written
  CHECK_EQ(setId("board-7", 0), std::string("OK ID"));
  CHECK_EQ(fake.eepromWrites, w + 1);
  CHECK_EQ((int)fake.eeprom[0], (int)ID_MAGIC);
}

static bool lastFrame(std::vector<int>* v) {
  std::vector<std::string> f = linesStarting("F ");
  unsigned seq;
  return !f.empty() && parseFrame(f.back(), &seq, v);
}

TEST(quiet_mode_sends_the_settled_values_after_a_change) {
  boot(board);
  fake.send("MODE Q\n");
  runFor(board, 300000);
  fake.tx.clear();
  // a coin put down: the reading rises over ~50 ms, then rests at 700
  for (int k = 1; k <= 10; k++) {
    fake.setSquare(14, (uint16_t)(512 + (700 - 512) * k / 10));
    runFor(board, 5000);
  }
  runFor(board, 100000);
  std::vector<int> v;
  CHECK(lastFrame(&v));
  CHECK_EQ(v[13], 700);  // not a value caught on the way up
  size_t n = linesStarting("F ").size();
  CHECK(n >= 2);
  // then quiet again: heartbeats only
  runFor(board, 600000);
  CHECK_EQ(linesStarting("F ").size(), n);
  CHECK(linesStarting("H ").size() >= 2);

  // a slow creep that never jumps by more than the threshold between ticks
  // still ends in a frame with the value it comes to rest at
  fake.tx.clear();
  for (int k = 1; k <= 6; k++) {
    fake.setSquare(14, (uint16_t)(700 + 2 * k));
    runFor(board, 10000);
  }
  fake.setSquare(14, 724);
  runFor(board, 40000);
  runFor(board, 400000);
  CHECK(lastFrame(&v));
  CHECK_EQ(v[13], 724);
}

TEST(quiet_mode_settled_frame_is_not_sent_when_it_equals_the_change_frame) {
  boot(board);
  fake.send("MODE Q\n");
  runFor(board, 300000);
  fake.tx.clear();
  fake.setSquare(3, 650);  // a clean step: the change frame already has the value
  runFor(board, 500000);
  CHECK_EQ(linesStarting("F ").size(), (size_t)1);
}
