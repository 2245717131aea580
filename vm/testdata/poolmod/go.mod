module poolmod

go 1.26
