// check.cpp — the test runner behind check.h (main()).
#include "check.h"
#include <string.h>
#include <vector>

namespace check {
struct Entry {
  const char* name;
  TestFn fn;
};
static std::vector<Entry>& tests() {
  static std::vector<Entry> t;
  return t;
}
static int failures_in_test = 0;
static long checks = 0;
static const char* current = "";

void add(const char* name, TestFn fn) { tests().push_back(Entry{name, fn}); }
void pass() { checks++; }
void fail(const char* file, int line, const std::string& what) {
  checks++;
  failures_in_test++;
  printf("  FAIL %s (%s:%d)\n      %s\n", current, file, line, what.c_str());
}

int run_all(const char* filter) {
  int passed = 0, failed = 0;
  for (size_t i = 0; i < tests().size(); i++) {
    const Entry& e = tests()[i];
    if (filter && !strstr(e.name, filter)) continue;
    current = e.name;
    failures_in_test = 0;
    e.fn();
    if (failures_in_test) {
      failed++;
      printf("not ok %s\n", e.name);
    } else {
      passed++;
      printf("ok %s\n", e.name);
    }
  }
  printf("host tests: %d passed, %d failed (%ld checks)\n", passed, failed, checks);
  return failed ? 1 : 0;
}
}  // namespace check

int main(int argc, char** argv) { return check::run_all(argc > 1 ? argv[1] : 0); }
