// std::tuple and std::pair as unnamed TFF structs: std::tuple<int, float> is <int32,float32>.
#pragma once

#include <tuple>
#include <utility>

#include "ctff/types/type_traits.hpp"

namespace ctff {

template <class... T>
struct tff_type_of<std::tuple<T...>> {
  using type = struct_t<tff_t<T>...>;
};

template <class A, class B>
struct tff_type_of<std::pair<A, B>> {
  using type = struct_t<tff_t<A>, tff_t<B>>;
};

}  // namespace ctff
