module afterlife

go 1.22
