module example.com/quickcall

go 1.25
