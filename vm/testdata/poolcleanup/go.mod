module poolcleanup

go 1.26
