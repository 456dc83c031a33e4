// A tuning plan as a value: its rounds of moves, the tuning parameters it sets and whether
// it asks to be printed. Parsed once from -mat_fem_gpu_tune_plan's text where the option is
// read (tune_plan.h's parse_tune_plan), and carried from there as this value: in a Mat's
// options and in TuneSettings (tuner.h), whose plan holds the rounds alone.
//
// Takes: nothing (a plain value). Returns: nothing.
// Does not: read or print text (tune_plan.h does), or know the moves beyond a pointer to
// their entries in the move table (tune_moves.h).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace femgpu {

struct TuneMove;  // tune_moves.h

struct PlanMove {
  const TuneMove *move = nullptr;  // an entry of the move table the plan was read with
  std::size_t n = 0;
};

struct PlanRound {
  std::vector<PlanMove> moves;
};

struct TunePlan {
  std::vector<PlanRound> rounds;  // empty: the backend's default rounds
  std::vector<std::pair<std::string, std::string>> params;  // name, value (checked)
  bool print = false;  // print the plan run and its parameters when tuning
};

}  // namespace femgpu
