module panicnil

go 1.20
