module queuesym

go 1.26
