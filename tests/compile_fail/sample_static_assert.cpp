// Harness self-test: needs no ctff header. A template whose instantiation fails a static_assert
// carrying a "ctff:"-style message; the harness must see the failure, the message first, and a
// short diagnostic.
//
// expect: ctff: sample message

template <class T>
inline constexpr bool always_false_v = false;

template <class T>
constexpr int reject() {
  static_assert(always_false_v<T>, "ctff: sample message");
  return 0;
}

int main() { return reject<int>(); }  // expect-line
