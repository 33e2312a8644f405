// ctime(3) without its newline: `Sun Nov  2 01:02:03 2026`, local time. sinfo -l and -i print
// it above the listing (print_date()).
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export function ctime(date: Date): string {
  const pad2 = (n: number): string => String(n).padStart(2, '0');
  const clock = `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
  return `${DAYS[date.getDay()]} ${MONTHS[date.getMonth()]} ${String(date.getDate()).padStart(2)} ${clock} ${date.getFullYear()}`;
}
