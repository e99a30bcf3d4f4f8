// Plain aggregates as named TFF structs: `struct point { float x; std::int32_t y; };` is
// <x=float32,y=int32>. Members are found with Boost.PFR; their names are read at compile time from
// the compiler's pretty function text for a pointer to the member (see member_name below).
#pragma once

#include <array>
#include <climits>
#include <boost/pfr/core.hpp>
#include <boost/pfr/tuple_size.hpp>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "ctff/core/fixed_string.hpp"
#include "ctff/core/python_name.hpp"
#include "ctff/types/type_traits.hpp"

namespace ctff {
namespace detail {

// Set to true (by partial specialization) for aggregates that another reflection header maps,
// such as Boost.Hana structs (reflect/hana.hpp): Boost.PFR then stays out of the way.
template <class T>
inline constexpr bool reflected_elsewhere = false;

template <class T>
inline constexpr bool is_std_array_v = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array_v<std::array<T, N>> = true;

// Class types reflected member by member. std::array, std::tuple and std::pair have their own
// headers (tuple and pair are not aggregates anyway); ctff's own types are never reflected.
// Boost.PFR's limits apply and report with its own messages: no base classes, no C array members.
template <class T>
concept plain_aggregate = std::is_class_v<T> && std::is_aggregate_v<T> && !tff_type<T> &&
                          !is_field_v<T> && !is_std_array_v<T> && !reflected_elsewhere<T>;

// ---------------------------------------------------------------------------------------------
// The number of initializer slots of T (its members; a C array member takes one slot per element,
// through brace elision), what boost::pfr::tuple_size_v<T> gives. PFR finds it by bisection
// between 0 and sizeof(T) * CHAR_BIT, one aggregate initialization with up to that many
// initializers per step: a struct with a std::array<std::array<float, 10>, 784> member has
// sizeof 31,400 bytes, so PFR's first probes are initializations with 125,601 and 62,801
// initializers, and its count costs seconds and hundreds of MiB per struct type (and would not
// finish for float32[1000,1000]). The count only depends on the members: grow n = 1, 2, 4, ...
// while T{probe x n} is valid, then bisect between the last valid and the first invalid n; every
// probe has at most twice as many initializers as T has slots.
//
// This needs T{probe x n} valid for every n up to the count, which holds when T{} is valid (every
// member can be initialized from `{}`); otherwise (a member without a default constructor, a
// reference member) PFR's own count runs.

// Converts to anything: an lvalue for copyable aggregates, a prvalue for move-only ones (as PFR's
// count does).
struct any_probe {
  template <class X>
  operator X&() const noexcept;  // declared only: used in unevaluated operands
};
struct any_rvalue_probe {
  template <class X>
  operator X() const&& noexcept;
};
template <class T, std::size_t>
using count_probe_at =
    std::conditional_t<std::is_copy_constructible_v<T>, any_probe, any_rvalue_probe>;

template <class T, std::size_t... I>
constexpr bool initializable_with(std::index_sequence<I...>) {
  return requires { T{count_probe_at<T, I>{}...}; };
}
template <class T, std::size_t N>
inline constexpr bool initializable_with_n = initializable_with<T>(std::make_index_sequence<N>{});

// T{probe x Low} is valid, T{probe x High} is not: the largest valid n.
template <class T, std::size_t Low, std::size_t High>
constexpr std::size_t bisect_slot_count() {
  if constexpr (High - Low == 1) {
    return Low;
  } else {
    constexpr std::size_t middle = Low + (High - Low) / 2;
    if constexpr (initializable_with_n<T, middle>)
      return bisect_slot_count<T, middle, High>();
    else
      return bisect_slot_count<T, Low, middle>();
  }
}

// T{probe x N/2} is valid (N = 1: nothing tested yet). Stops at sizeof(T) * CHAR_BIT + 1 (PFR's
// bound: a slot per bit, bit-fields included) whatever T does.
template <class T, std::size_t N>
constexpr std::size_t grow_slot_count() {
  if constexpr (N > sizeof(T) * CHAR_BIT + 1)
    return boost::pfr::tuple_size_v<T>;  // not an aggregate PFR can count; let it say so
  else if constexpr (initializable_with_n<T, N>)
    return grow_slot_count<T, N * 2>();
  else
    return bisect_slot_count<T, N / 2, N>();
}

template <class T>
constexpr std::size_t count_slots() {
  if constexpr (requires { T{}; })
    return grow_slot_count<T, 1>();
  else
    return boost::pfr::tuple_size_v<T>;
}

template <class T>
inline constexpr std::size_t slot_count = count_slots<T>();

// Member I of an aggregate object (PFR's structured binding for T's count), and its type.
template <std::size_t I, class T>
constexpr auto& member_ref(T& object) noexcept {
  return boost::pfr::detail::sequence_tuple::get<I>(
      boost::pfr::detail::tie_as_tuple(object, boost::pfr::detail::size_t_<slot_count<std::remove_cv_t<T>>>{}));
}
template <class T, std::size_t I>
using member_type_t = std::remove_reference_t<decltype(member_ref<I>(std::declval<T&>()))>;

// ---------------------------------------------------------------------------------------------
// Member names. The address of member I of an object is a constant expression that the
// compilers print with the member's name (g++: `(& obj.S::name)`, clang: `&obj.value.name`).
// Two portability points: clang 16 rejects a pointer to a subobject as a template argument unless
// it is wrapped in a class type (member_address), and the object is declared, never defined, so
// that any T works (no default constructor, destructor or literal type needed).
template <class T>
struct fake_holder {
  T value;
};

#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif
// Only its address is used, in template arguments of consteval functions: never odr-used at run
// time, so the missing definition never reaches the linker.
template <class T>
extern const fake_holder<T> fake_object;

template <class P>
struct member_address {
  P pointer;
};
template <class P>
member_address(P) -> member_address<P>;  // clang 16 has no CTAD for aggregates

template <member_address A>
consteval std::string_view pretty_member() {
  return __PRETTY_FUNCTION__;
}

template <class T, std::size_t I>
consteval std::string_view pretty_member_of() {
  return pretty_member<member_address{&member_ref<I>(fake_object<T>.value)}>();
}

// Whether the member addresses are constant expressions: not with a reference or bit-field member.
template <member_address A>
struct address_tag {};

template <class T>
concept has_constant_member_addresses = requires {
  typename address_tag<member_address{&member_ref<0>(fake_object<T>.value)}>;
};
#ifdef __clang__
#pragma clang diagnostic pop
#endif

// The text after a member's name is the same for every member on a given compiler (g++ adds
// `)}; std::string_view = ...]`, clang `}]`): measure it once on a probe member. A variable
// template of the reflected type whose probe does not depend on it (name_probe<void> for every
// T): the probe is read once, and only by a program that reflects a struct (a TU that includes
// ctff and reflects none instantiates nothing of PFR).
template <class>
struct name_probe {
  int ctff_name_probe;
};

template <class T>
inline constexpr std::size_t pretty_suffix_size = [] {
  constexpr std::string_view text =
      pretty_member_of<name_probe<std::conditional_t<sizeof(T) != 0, void, T>>, 0>();
  constexpr std::string_view probe = "ctff_name_probe";
  return text.size() - text.rfind(probe) - probe.size();
}();

constexpr bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || static_cast<unsigned char>(c) >= 0x80;  // UTF-8 identifiers
}

// The name of member I of T: the identifier that ends the printed member address.
template <class T, std::size_t I>
consteval std::string_view member_name() {
  std::string_view text = pretty_member_of<T, I>();
  text.remove_suffix(pretty_suffix_size<T>);
  std::size_t begin = text.size();
  while (begin != 0 && is_identifier_char(text[begin - 1])) --begin;
  return text.substr(begin);
}

template <std::size_t N>
consteval fixed_string<N> to_fixed_string(std::string_view s) {
  char chars[N + 1]{};
  for (std::size_t i = 0; i != N; ++i) chars[i] = s[i];
  return fixed_string<N>(chars);
}

template <class T, std::size_t I>
inline constexpr std::string_view member_name_text = member_name<T, I>();

template <class T, std::size_t I>
inline constexpr auto member_name_v =
    to_fixed_string<member_name_text<T, I>.size()>(member_name_text<T, I>);

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
// Shapes Boost.PFR cannot reflect, detected before PFR is asked (its own errors name neither the
// aggregate nor the member): a base class, a C array member. Both are found by aggregate
// initialization in requires-expressions, which fail quietly.

// Converts to a base class of T and to nothing else: T{base_probe<T>{}} is valid only when T's
// first element is a base (bases come before members in aggregate initialization).
template <class T>
struct base_probe {
  template <class B>
    requires(std::is_class_v<B> && !std::is_same_v<B, T> && std::is_base_of_v<B, T>)
  operator B&&() const noexcept;  // declared only: used in unevaluated operands
};

template <class T>
concept aggregate_with_base = requires { T{base_probe<T>{}}; };

// any_probe (above) converts to anything (PFR's count works the same way).
template <std::size_t>
using any_probe_at = any_probe;

// With E initializers, one per scalar slot (PFR's count, in which a C array member `float w[4]`
// takes 4 slots through brace elision): is T{any x S, {}, any x (E - S - 1)} valid? `{}` always
// initializes one member or one array element, except at the first slot of a C array member,
// where it initializes the whole array and leaves too many initializers. `{any}` stands in where
// `{}` fails for another reason (a reference member, no default constructor).
template <class T, std::size_t S, std::size_t E, std::size_t... I, std::size_t... J>
constexpr bool slot_starts_member(std::index_sequence<I...>, std::index_sequence<J...>) {
  return requires { T{any_probe_at<I>{}..., {}, any_probe_at<J>{}...}; } ||
         requires { T{any_probe_at<I>{}..., {any_probe{}}, any_probe_at<J>{}...}; };
}

// A slot that fails the test above starts a C array member when the array can be initialized
// whole there (`{}` or `{any}`, no initializers after it), which a reference member cannot.
template <class T, std::size_t... I>
constexpr bool whole_array_at(std::index_sequence<I...>) {
  return requires { T{any_probe_at<I>{}..., {}}; } ||
         requires { T{any_probe_at<I>{}..., {any_probe{}}}; };
}

template <class T, std::size_t E, std::size_t... S>
constexpr std::size_t first_c_array_slot(std::index_sequence<S...>) {
  constexpr bool starts[] = {
      true, (slot_starts_member<T, S, E>(std::make_index_sequence<S>{},
                                         std::make_index_sequence<E - S - 1>{}) ||
             !whole_array_at<T>(std::make_index_sequence<S>{}))...};
  for (std::size_t s = 0; s != E; ++s)
    if (!starts[s + 1]) return s;
  return E;
}

// The index of T's first C array member (members before it take one slot each), or E: none.
// Common case, one requires-expression: E braced initializers `{any}`, one per slot, are valid
// only when no member takes several slots.
template <class T, std::size_t E, std::size_t... I>
constexpr std::size_t c_array_member_index(std::index_sequence<I...>) {
  if constexpr (E == 0 || requires { T{{((void)I, any_probe{})}...}; })
    return E;
  else
    return first_c_array_slot<T, E>(std::make_index_sequence<E>{});
}

// The number of members, arrays counted once, when every member takes `{any}` (else 0): the
// largest n with T{{any} x n} valid, confirmed by T{{any} x n, any} being invalid.
template <class T, std::size_t N, std::size_t... I>
constexpr bool braced_init_valid(std::index_sequence<I...>) {
  return requires { T{{((void)I, any_probe{})}...}; };
}
template <class T, std::size_t N, std::size_t... I>
constexpr bool braced_init_full(std::index_sequence<I...>) {
  return braced_init_valid<T, N>(std::index_sequence<I...>{}) &&
         !requires { T{{((void)I, any_probe{})}..., any_probe{}}; };
}
template <class T, std::size_t E, std::size_t... N>
constexpr std::size_t member_count(std::index_sequence<N...>) {
  constexpr bool full[] = {false, braced_init_full<T, N + 1>(std::make_index_sequence<N + 1>{})...};
  for (std::size_t n = E; n != 0; --n)
    if (full[n]) return n;
  return 0;
}

// The name of member I of T, which has M members (any kind: C arrays too), read as member_name
// does, through PFR's structured binding for a given count.
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif
template <class T, std::size_t M, std::size_t I>
consteval std::string_view counted_member_name() {
  std::string_view text = pretty_member<member_address{&boost::pfr::detail::sequence_tuple::get<I>(
      boost::pfr::detail::tie_as_tuple(fake_object<T>.value, boost::pfr::detail::size_t_<M>{}))}>();
  text.remove_suffix(pretty_suffix_size<T>);
  std::size_t begin = text.size();
  while (begin != 0 && is_identifier_char(text[begin - 1])) --begin;
  return text.substr(begin);
}

template <class T, std::size_t M, std::size_t I>
inline constexpr std::string_view counted_member_name_v = counted_member_name<T, M, I>();
#ifdef __clang__
#pragma clang diagnostic pop
#endif



template <class T>
using indices_of = std::make_index_sequence<slot_count<T>>;

// A reference member makes every member address non-constant (PFR's tie reads the reference), a
// bit-field has no address: then no name can be read. Report that, not a failed template argument.
template <class T>
consteval bool member_addresses_are_constant() {
  if constexpr (slot_count<T> == 0)
    return true;
  else
    return has_constant_member_addresses<T>;
}

template <class T>
inline constexpr bool has_addressable_members = member_addresses_are_constant<T>();

// Named so that the failed requirement shows the aggregate (and the member's index).
template <class T>
inline constexpr bool has_no_base_class = !aggregate_with_base<T>;
template <class T, auto Member>
inline constexpr bool member_is_not_a_c_array = false;

template <class T, auto Member>
constexpr void report_c_array_member() {
  static_assert(member_is_not_a_c_array<T, Member>,
                "ctff: an aggregate with a C array member has no TFF type (the aggregate and "
                "the member follow in member_is_not_a_c_array); write std::array<T, N> instead "
                "of T[N], or specialize ctff::tff_type_of for the aggregate");
}

// Names the member when the member count can be found (every member takes `{any}`), else gives
// its index.
template <class T, std::size_t E, std::size_t Index>
constexpr void find_c_array_member() {
  constexpr std::size_t m = member_count<T, E>(std::make_index_sequence<E>{});
  // (`T{}` fails with a reference member, whose address is no constant.)
  if constexpr (m > Index && requires { T{}; }) {
    constexpr std::string_view name = counted_member_name_v<T, m, Index>;
    report_c_array_member<T, to_fixed_string<name.size()>(name)>();
  } else {
    report_c_array_member<T, Index>();
  }
}

// Every check that needs the aggregate's shape, in the order that lets each run: PFR's count
// fails on a base class, its member access on a C array member.
template <class T>
constexpr bool check_aggregate_shape() {
  if constexpr (aggregate_with_base<T>) {
    static_assert(has_no_base_class<T>,
                  "ctff: an aggregate with a base class has no TFF type (Boost.PFR reads the "
                  "members of one class only); declare the base's members in the struct itself, "
                  "or specialize ctff::tff_type_of for it");
    return false;
  } else if constexpr (constexpr std::size_t e = slot_count<T>,
                       i = c_array_member_index<T, e>(std::make_index_sequence<e>{});
                       i != e) {
    find_c_array_member<T, e, i>();
    return false;
  } else {
    static_assert(has_addressable_members<T>,
                  "ctff: an aggregate with a reference or bit-field member has no TFF type (its "
                  "member names cannot be read); hold the value itself, drop the bit-field, or "
                  "specialize ctff::tff_type_of for it");
    return has_addressable_members<T>;
  }
}

template <class T, class Indices = indices_of<T>>
struct aggregate_members;
template <class T, std::size_t... I>
struct aggregate_members<T, std::index_sequence<I...>> {
  using type = struct_t<
      typename member_field<T, member_name_v<T, I>, member_type_t<T, I>>::type...>;
};

template <class T, bool Valid = check_aggregate_shape<T>()>
struct aggregate_struct {
  using type = struct_t<>;  // placeholder after a shape error
};
template <class T>
struct aggregate_struct<T, true> {
  using type = typename aggregate_members<T>::type;
};

}  // namespace detail

template <detail::plain_aggregate T>
struct tff_type_of<T> {
  using type = typename detail::aggregate_struct<T>::type;
};

}  // namespace ctff
