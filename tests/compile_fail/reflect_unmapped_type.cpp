// A C++ type that maps to no TFF type (a class with a private member is no aggregate).
// expect: ctff: no TFF type for this C++ type; specialize ctff::tff_type_of<T> for it
#include <ctff/ctff.hpp>

class handle {
  int fd_ = 0;

 public:
  int fd() const { return fd_; }
};

using handle_type = ctff::tff_t<handle>;  // expect-line
