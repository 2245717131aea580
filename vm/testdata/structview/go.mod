module structview

go 1.22
