module memstats

go 1.26
