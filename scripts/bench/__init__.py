"""The benchmarks (`make bench`): the site's build time, scaling, bytes per view and Lighthouse scores, and search
against Material's stock search. Figures only, never asserted; they sit on top of every layer."""
