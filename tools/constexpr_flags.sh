# Sourced by the measuring scripts: `flags[<compiler>]`, the constant-evaluation limits ctff::ctff
# gives each compiler (CTFF_CONSTEXPR_* in CMakeLists.txt; these defaults if that file changed
# shape). Run from the repository root.
declare -A flags=([g++-12]="-fconstexpr-ops-limit=1073741824 -fconstexpr-loop-limit=16777216"
                  [clang++-16]="-fconstexpr-steps=268435456")
ops=$(sed -n 's/^set(CTFF_CONSTEXPR_OPS_LIMIT \([0-9]*\).*/\1/p' CMakeLists.txt)
loop=$(sed -n 's/^set(CTFF_CONSTEXPR_LOOP_LIMIT \([0-9]*\).*/\1/p' CMakeLists.txt)
steps=$(sed -n 's/^set(CTFF_CONSTEXPR_STEPS \([0-9]*\).*/\1/p' CMakeLists.txt)
[[ -n $ops && -n $loop ]] && flags[g++-12]="-fconstexpr-ops-limit=$ops -fconstexpr-loop-limit=$loop"
[[ -n $steps ]] && flags[clang++-16]="-fconstexpr-steps=$steps"
