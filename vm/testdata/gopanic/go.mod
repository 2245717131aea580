module gopanic

go 1.26
