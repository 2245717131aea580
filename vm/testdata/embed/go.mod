module embedtest

go 1.26
