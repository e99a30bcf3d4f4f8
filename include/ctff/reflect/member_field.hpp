// One aggregate member as a TFF struct field, field<"name", TFF type>, with the checks of its name
// and its type.
#pragma once

#include <type_traits>

#include "ctff/core/fixed_string.hpp"
#include "ctff/core/python_name.hpp"
#include "ctff/types/type_traits.hpp"

namespace ctff::detail {

// Named so that the failed requirement, printed by both compilers on the error's own lines, shows
// the aggregate, the member's name and its type:
// `member_has_tff_type<client_data, ctff::fixed_string<3>{"ptr"}, void*>`.
template <class Aggregate, fixed_string Member, class Type>
inline constexpr bool member_has_tff_type = has_tff_type<Type>;

// A member name TFF accepts as a field name (core/python_name.hpp).
template <class Aggregate, fixed_string Member>
inline constexpr bool member_name_allowed = is_valid_element_name(Member.view());

template <class Aggregate, fixed_string Member>
constexpr auto member_name_or_placeholder() {
  if constexpr (member_name_allowed<Aggregate, Member>)
    return Member;
  else
    return fixed_string("ctff_invalid");
}

// The checks sit in constexpr function bodies, evaluated while the type is computed: a failed
// static_assert there leaves the enclosing classes valid. In a class, clang would drop the class,
// fail the has_tff_type check it is instantiated from, and add tff_t's generic error.
template <class Aggregate, fixed_string Member, class Type>
constexpr bool check_member() {
  if constexpr (!member_name_allowed<Aggregate, Member>) {
    static_assert(member_name_allowed<Aggregate, Member>,
                  "ctff: an aggregate member's name is an attribute name of Python's StructType "
                  "(items, named, children, __x__, ...), which TFF rejects as a field name; rename "
                  "the member or specialize ctff::tff_type_of for the aggregate");
    return false;
  } else {
    static_assert(member_has_tff_type<Aggregate, Member, Type>,
                  "ctff: a member of this aggregate has no TFF type (its name and type are the "
                  "arguments of member_has_tff_type); specialize ctff::tff_type_of for the "
                  "member's type");
    return true;
  }
}

// One member as field<"name", TFF type>; shared with reflect/hana.hpp. Naming the class runs
// check_member (a default argument); after its error a placeholder avoids further ones.
template <class Aggregate, fixed_string Member, class Type,
          bool Checked = check_member<Aggregate, Member, Type>()>
struct member_field {
  using type =
      field<member_name_or_placeholder<Aggregate, Member>(),
            typename std::conditional_t<has_tff_type<Type>, tff_t_impl<Type>,
                                        std::type_identity<tensor<dtype::bool_>>>::type>;
};

}  // namespace ctff::detail
