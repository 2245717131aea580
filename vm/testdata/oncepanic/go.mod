module oncepanic

go 1.26
