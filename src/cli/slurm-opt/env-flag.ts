// How salloc and sbatch read a flag option from their input environment variables
// (salloc(1), sbatch(1) "INPUT ENVIRONMENT VARIABLES"): the flag is on when the variable is
// empty, "yes" or a non-zero number; any other value leaves it off (observed on 22.05:
// "2" and "-1" count, "0", "no" and "2x" do not).
export function envFlagIsSet(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === '' || value.toLowerCase() === 'yes') return true;
  return /^\s*[+-]?\d+$/.test(value) && Number(value) !== 0;
}
