module example.com/reflectselect

go 1.25
