// The CPU backend: the reference action behind the ActionBackend interface.
#include "runtime/action_backend.h"

#include "reference/reference_action.h"

namespace femgpu {

namespace {

class ReferenceBackend : public ActionBackend {
 public:
  ReferenceBackend(const ActionIR &ir, const Tabulation &tab) : ActionBackend(ir, tab), ir_(ir), tab_(tab) {}
  std::string name() const override { return "cpu"; }
  std::string schedule() const override { return "reference loops over cells (the paper's Algorithm 2), FP64"; }
  void apply(const ActionArrays &arrays, std::size_t, double *out) override { reference_action(ir_, tab_, arrays, out); }

 private:
  const ActionIR &ir_;
  const Tabulation &tab_;
};

}  // namespace

std::unique_ptr<ActionBackend> make_reference_backend(const ActionIR &ir, const Tabulation &tab)
{
  return std::make_unique<ReferenceBackend>(ir, tab);
}

}  // namespace femgpu
