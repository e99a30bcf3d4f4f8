// An aggregate member whose type has no TFF type: the error names the aggregate and the member.
// expect: ctff: a member of this aggregate has no TFF type
// expect: fixed_string<3>{"ptr"}
#include <ctff/ctff.hpp>

struct client_data {
  float weight;
  void* ptr;
};

using client_data_at_clients = ctff::at_clients<client_data>;  // expect-line
