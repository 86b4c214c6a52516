// Exceptions thrown by the core's validating entry points.
//
// Every entry point checks its input once and throws one of these with a message that says what
// was wrong and where; the inner functions it calls are noexcept. The Python binding maps
// InvalidHand to mahjong_core.InvalidHandError (a ValueError) and InvalidArgument to ValueError.
#pragma once

#include <stdexcept>
#include <string>

namespace mahjong_core {

// The hand itself is impossible or does not fit the call: a fifth copy, a wrong tile count,
// a meld that is not a chow/pung/kong, a chow across suits.
class InvalidHand : public std::invalid_argument {
 public:
  explicit InvalidHand(const std::string& what) : std::invalid_argument(what) {}
};

// Any other argument out of range (unknown form flags, a tile index outside 0..33).
class InvalidArgument : public std::invalid_argument {
 public:
  explicit InvalidArgument(const std::string& what) : std::invalid_argument(what) {}
};

}  // namespace mahjong_core
