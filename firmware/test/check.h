// check.h — a tiny test framework: TEST(name) registers a test, CHECK /
// CHECK_EQ record failures with file:line, run_all() runs everything and
// prints "host tests: N passed, M failed (K checks)".
#ifndef CROWNHEAD_CHECK_H
#define CROWNHEAD_CHECK_H

#include <stdio.h>
#include <string>
#include <sstream>

namespace check {
typedef void (*TestFn)();
void add(const char* name, TestFn fn);
void fail(const char* file, int line, const std::string& what);
void pass();
int run_all(const char* filter);

template <typename A, typename B>
void eq(const A& a, const B& b, const char* ea, const char* eb, const char* file, int line) {
  if (a == b) {
    pass();
    return;
  }
  std::ostringstream s;
  s << ea << " == " << eb << "\n      got:      " << a << "\n      expected: " << b;
  fail(file, line, s.str());
}

struct Registrar {
  Registrar(const char* name, TestFn fn) { add(name, fn); }
};
}  // namespace check

#define TEST(name)                                          \
  static void test_##name();                                \
  static check::Registrar reg_##name(#name, test_##name);   \
  static void test_##name()

#define CHECK(cond) \
  ((cond) ? check::pass() : check::fail(__FILE__, __LINE__, "CHECK(" #cond ")"))
#define CHECK_EQ(a, b) check::eq((a), (b), #a, #b, __FILE__, __LINE__)

#endif
