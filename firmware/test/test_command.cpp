// test_command.cpp — line assembly (CR/LF, 127-character limit) and command
// parsing: every command, bad arguments, unknown commands, checksums.
#include <string.h>
#include "check.h"
#include "command.h"
#include "flash.h"
#include "util.h"

static LineReader reader;

static std::vector<std::string> feed(const std::string& s, int* toolong) {
  std::vector<std::string> out;
  *toolong = 0;
  for (size_t i = 0; i < s.size(); i++) {
    LineReader::Event e = reader.feed(s[i]);
    if (e == LineReader::LINE) out.push_back(std::string(reader.text(), reader.length()));
    if (e == LineReader::TOOLONG) (*toolong)++;
  }
  return out;
}

TEST(reader_splits_lines_and_strips_cr) {
  reader.reset();
  int tl;
  std::vector<std::string> l = feed("RATE 50\n\rMODE Q\r\n?\n", &tl);
  CHECK_EQ(l.size(), (size_t)3);
  CHECK_EQ(l[0], std::string("RATE 50"));
  CHECK_EQ(l[1], std::string("MODE Q"));
  CHECK_EQ(l[2], std::string("?"));
  CHECK_EQ(tl, 0);
}

TEST(reader_limit_is_127_characters) {
  reader.reset();
  int tl;
  std::string ok127(127, 'x'), bad128(128, 'x');
  CHECK_EQ(feed(ok127 + "\n", &tl).size(), (size_t)1);
  CHECK_EQ(tl, 0);
  CHECK_EQ(feed(ok127 + "\r\n", &tl).size(), (size_t)1);
  CHECK_EQ(tl, 0);
  CHECK_EQ(feed(bad128 + "\n", &tl).size(), (size_t)0);
  CHECK_EQ(tl, 1);
  std::vector<std::string> l = feed(std::string(500, 'y') + "\nLED 1\n", &tl);
  CHECK_EQ(tl, 1);  // one long line → one TOOLONG, then back in sync
  CHECK_EQ(l.size(), (size_t)1);
  CHECK_EQ(l[0], std::string("LED 1"));
}

static Command parse(const std::string& s) {
  Command c;
  parseCommand(s.c_str(), (uint8_t)s.size(), c);
  return c;
}

static std::string word(const Command& c) { return c.word ? std::string(c.word) : std::string(); }

TEST(parse_every_command) {
  CHECK_EQ((int)parse("?").kind, (int)CMD_IDENTIFY);
  Command c = parse("RATE 1");
  CHECK_EQ((int)c.kind, (int)CMD_RATE);
  CHECK_EQ((int)c.value, 1);
  CHECK_EQ(word(c), std::string("RATE"));
  CHECK_EQ((int)parse("RATE 100").value, 100);
  CHECK_EQ((int)parse("rate 20").value, 20);  // people type lower case
  CHECK_EQ((int)parse("MODE S").value, (int)'S');
  CHECK_EQ((int)parse("MODE q").value, (int)'Q');
  CHECK_EQ((int)parse("BUZZ ILLEGAL").value, (int)BUZZ_ILLEGAL);
  CHECK_EQ((int)parse("BUZZ OK").value, (int)BUZZ_OK);
  CHECK_EQ((int)parse("BUZZ GAMEOVER").value, (int)BUZZ_GAMEOVER);
  CHECK_EQ((int)parse("BUZZ OFF").value, (int)BUZZ_OFF);
  CHECK_EQ((int)parse("LED 0").value, (int)LED_OFF);
  CHECK_EQ((int)parse("LED 1").value, (int)LED_ON);
  CHECK_EQ((int)parse("LED BLINK").value, (int)LED_BLINK);
  c = parse("ID Board_7-a");
  CHECK_EQ((int)c.kind, (int)CMD_ID);
  CHECK_EQ(std::string(c.id), std::string("Board_7-a"));
  CHECK_EQ((int)parse("ID 0123456789abcdef").kind, (int)CMD_ID);  // 16 chars
  CHECK_EQ((int)parse("  RATE   5 ").value, 5);
}

TEST(parse_bad_arguments) {
  const char* bad[] = {"RATE 0",  "RATE 101", "RATE",    "RATE x",    "RATE 5 6",      "RATE -1",
                       "RATE 1000", "MODE",   "MODE X",  "MODE SQ",   "BUZZ",          "BUZZ LOUD",
                       "LED 2",   "LED",      "ID",      "ID a.b",    "ID 0123456789abcdefg",
                       "? x",     "LED 1 2 3"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    Command c = parse(bad[i]);
    if (c.error != ERR_BADARG) printf("    input: %s\n", bad[i]);
    CHECK_EQ((int)c.error, (int)ERR_BADARG);
    CHECK_EQ((int)c.kind, (int)CMD_NONE);
    CHECK(c.message && strlen(c.message) > 0);
  }
}

TEST(parse_unknown_and_empty) {
  CHECK_EQ((int)parse("FOO").error, (int)ERR_BADCMD);
  CHECK_EQ((int)parse("RATES 5").error, (int)ERR_BADCMD);
  Command c = parse("");
  CHECK_EQ((int)c.kind, (int)CMD_NONE);
  CHECK_EQ((int)c.error, (int)ERR_NONE);
  CHECK_EQ((int)parse("   ").error, (int)ERR_NONE);
  CHECK_EQ((int)parse(std::string(128, 'A')).error, (int)ERR_TOOLONG);
}

TEST(parse_checksums) {
  Command c = parse(withChecksum("RATE 20"));
  CHECK_EQ((int)c.kind, (int)CMD_RATE);
  CHECK_EQ((int)c.value, 20);
  std::string good = withChecksum("MODE Q");
  std::string lower = good;
  for (size_t i = lower.size() - 2; i < lower.size(); i++) lower[i] = (char)tolower(lower[i]);
  CHECK_EQ((int)parse(lower).kind, (int)CMD_MODE);
  std::string wrong = good;
  wrong[wrong.size() - 1] = wrong[wrong.size() - 1] == '0' ? '1' : '0';
  CHECK_EQ((int)parse(wrong).error, (int)ERR_CHECKSUM);
  CHECK_EQ((int)parse("RATE 20*").error, (int)ERR_CHECKSUM);
  CHECK_EQ((int)parse("RATE 20*1").error, (int)ERR_CHECKSUM);
  CHECK_EQ((int)parse("RATE 20*1G").error, (int)ERR_CHECKSUM);
  CHECK_EQ((int)parse("RATE 20*123").error, (int)ERR_CHECKSUM);
  // the checksum covers the command: a corrupted argument is caught
  std::string s = withChecksum("RATE 20");
  s[6] = '1';
  CHECK_EQ((int)parse(s).error, (int)ERR_CHECKSUM);
  CHECK_EQ(std::string(errorName(ERR_CHECKSUM)), std::string("CHECKSUM"));
}
