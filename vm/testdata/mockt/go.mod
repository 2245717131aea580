module mockt

go 1.22
