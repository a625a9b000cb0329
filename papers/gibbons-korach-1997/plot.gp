# Draws scaling.svg from medians.tsv (written by reproduce.py): ariadne's median time to
# the verdict against history size, log-log, one panel per engine and verdict, one line
# per value domain. Points at the dashed line are runs that gave up at the time limit.
#
#   gnuplot -e "datafile='medians.tsv'; outfile='scaling.svg'" plot.gp
# Optional: engines='wgl sat auto', domains='unique 2', limit_ms=10000.

if (!exists("datafile")) datafile = "medians.tsv"
if (!exists("outfile")) outfile = "scaling.svg"
if (!exists("engines")) engines = "wgl sat auto"
if (!exists("domains")) domains = "unique 2"
if (!exists("limit_ms")) limit_ms = 10000

set terminal svg size 1200,760 dynamic enhanced font "sans,11" background "white"
set output outfile
set datafile separator "\t"
set logscale xy
set xrange [70:7000]
set yrange [0.1:limit_ms * 100]
set format y "10^{%L}"
set grid xtics ytics lc rgb "#dddddd"
set key top left horizontal maxcols 2 reverse Left box opaque samplen 2 font ",9"

domain_title(d) = (d eq "unique" ? "unique values" : sprintf("%s values", d))
domain_color(i) = word("#1b9e77 #d95f02 #7570b3 #e7298a #66a61e", i)
engine_title(e) = (e eq "auto" ? "auto (the race)" : e eq "wgl" ? "WGL alone" : e eq "sat" ? "SAT (CaDiCaL) alone" : e)

# Columns: 1 ops, 2 values, 3 violation, 4 engine, 5 seeds, 6 decided, 7 median_ms (the limit when
# most seeds gave up), 8 gave_up. One curve's rows, picked with awk so that gnuplot's lines
# join them (a point filtered out inside gnuplot would break the line).
curve(d, v, e) = sprintf("< awk -F'\\t' '$2 == \"%s\" && $3 == %d && $4 == \"%s\"' '%s'", d, v, e, datafile)
# Points where some seed gave up, ringed; the END line is a dummy point outside the plot,
# so a curve with none is not an empty file (which gnuplot warns about).
partial(d, v, e) = sprintf("< awk -F'\\t' '$2 == \"%s\" && $3 == %d && $4 == \"%s\" && $6 < $5; END { print \"1\\tx\\t0\\tx\\t1\\t1\\t1\\t0\" }' '%s'", d, v, e, datafile)

set multiplot layout 2, words(engines) title "ariadne on register histories: time to the verdict against size (Gibbons and Korach 1997)" font ",13"
do for [v = 0:1] {
  do for [i = 1:words(engines)] {
    e = word(engines, i)
    set title sprintf("%s, %s", engine_title(e), (v == 0 ? "linearizable" : "with a stale read"))
    set xlabel "operations"
    set ylabel (i == 1 ? "median time (ms)" : "")
    plot for [j = 1:words(domains)] curve(word(domains, j), v, e) using 1:7 \
           with linespoints lw 2 pt 7 ps 0.7 lc rgb domain_color(j) title domain_title(word(domains, j)), \
         for [j = 1:words(domains)] partial(word(domains, j), v, e) using 1:7 \
           with points pt 6 ps 1.6 lc rgb domain_color(j) notitle, \
         limit_ms with lines dt 2 lc rgb "#999999" title "time limit (gave up)"
  }
}
unset multiplot
