module reexec

go 1.26
